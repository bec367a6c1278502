/** @accord/social-sdk for browsers: everything but calls (startCall rejects with ErrorType.Disabled). */
export * from './common.js';
