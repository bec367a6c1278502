import { LoggingSeverity, enumToString } from './enums.js';

/**
 * A log file in a directory (SetLogDir, SetVoiceLogDir): created anew, one line per message at or above the minimum
 * severity. Node only; a browser has no directory to write to.
 */
export class LogFile {
  private fd: number | null = null;
  private min: LoggingSeverity = LoggingSeverity.None;
  private fs: typeof import('node:fs') | null = null;

  constructor(private readonly fileName: string) {}

  /** Opens `${dir}/${fileName}` (an empty dir: the working directory); None closes it. Whether it is open. */
  open(dir: string, minSeverity: LoggingSeverity): boolean {
    this.close();
    if (minSeverity === LoggingSeverity.None) return true;
    const proc = globalThis.process as (NodeJS.Process & { getBuiltinModule?: (id: string) => unknown }) | undefined;
    const fs = proc?.getBuiltinModule?.('node:fs') as typeof import('node:fs') | undefined;
    const path = proc?.getBuiltinModule?.('node:path') as typeof import('node:path') | undefined;
    if (!fs || !path) return false;
    try {
      this.fd = fs.openSync(path.join(dir || proc!.cwd(), this.fileName), 'w');
    } catch {
      return false;
    }
    this.fs = fs;
    this.min = minSeverity;
    return true;
  }

  write(message: string, severity: LoggingSeverity): void {
    if (this.fd === null || severity < this.min) return;
    this.fs!.writeSync(this.fd, `[${new Date().toISOString()}] [${enumToString(LoggingSeverity, severity)}] ${message}\n`);
  }

  close(): void {
    if (this.fd !== null) this.fs!.closeSync(this.fd);
    this.fd = null;
  }
}
