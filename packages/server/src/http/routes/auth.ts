import { z } from 'zod';
import { Routes } from '../router.js';
import { parseBody } from '../../core/validation.js';
import { login, register } from '../../services/identity/users.js';

const RegisterBody = z
  .object({
    username: z
      .string()
      .min(2)
      .max(32)
      .regex(/^[a-zA-Z0-9_.]+$/, { message: 'Username can only use letters, numbers, underscores and periods.' })
      .optional(),
    global_name: z.string().min(1).max(32).optional(),
    password: z.string().min(8).max(72),
    email: z.string().email().max(320).optional(),
    date_of_birth: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/)
      .optional(),
    consent: z.boolean().optional(),
  })
  .refine((b) => b.username || b.global_name, { message: 'This field is required', path: ['username'], params: { code: 'BASE_TYPE_REQUIRED' } });

const LoginBody = z.object({ login: z.string().min(1).max(320), password: z.string().min(1).max(72) });

/** Account routes of the official client: register and log in. */
export default new Routes()
  .post(
    '/auth/register',
    'none',
    async ({ ctx, body }) => {
      const b = parseBody(RegisterBody, body);
      const username = b.username ?? b.global_name!.replace(/[^a-zA-Z0-9_.]/g, '_').slice(0, 32);
      const { token } = await register(ctx, { username, globalName: b.global_name, email: b.email, password: b.password, dateOfBirth: b.date_of_birth });
      return { token };
    },
    { count: 20, windowMs: 60_000 },
  )
  .post(
    '/auth/login',
    'none',
    async ({ ctx, body, req }) => {
      const b = parseBody(LoginBody, body);
      return login(ctx, b.login, b.password, req.ip);
    },
    { count: 20, windowMs: 60_000 },
  );
