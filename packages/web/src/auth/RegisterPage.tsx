import { useState, type FormEvent } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { readableError } from '../lib/api/errors.js';
import { useSession } from '../lib/session.js';
import { useAction } from '../lib/use-action.js';
import { Banner, Button, TextField } from '../lib/ui/index.js';
import { AuthShell } from './AuthShell.js';
import { safeRedirect } from './safe-redirect.js';

export function RegisterPage() {
  const { token, api, signIn } = useSession();
  const loc = useLocation();
  const nav = useNavigate();
  const [form, setForm] = useState({ email: '', global_name: '', username: '', password: '' });
  const next = safeRedirect(loc.search);
  const { busy, error, run, fieldError } = useAction(async () => {
    const r = await api.auth.register({
      username: form.username,
      password: form.password,
      ...(form.global_name ? { global_name: form.global_name } : {}),
      ...(form.email ? { email: form.email } : {}),
    });
    signIn(r.token);
    nav(next, { replace: true });
  });
  if (token) return <Navigate to={next} replace />;

  const set = (k: keyof typeof form) => (e: { target: { value: string } }) => setForm({ ...form, [k]: e.target.value });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void run();
  };
  const known = ['email', 'global_name', 'username', 'password'].some((f) => fieldError(f));

  return (
    <AuthShell title="Create an account">
      <form onSubmit={submit} noValidate>
        {error && !known ? (
          <div style={{ marginBottom: 16 }}>
            <Banner>{readableError(error)}</Banner>
          </div>
        ) : null}
        <TextField label="Email" type="email" autoComplete="email" value={form.email} onChange={set('email')} error={fieldError('email')} />
        <TextField
          label="Display name"
          value={form.global_name}
          onChange={set('global_name')}
          error={fieldError('global_name')}
          hint="This is how others see you. You can use special characters and emoji."
        />
        <TextField
          label="Username"
          required
          autoComplete="username"
          value={form.username}
          onChange={set('username')}
          error={fieldError('username')}
          hint="Letters, numbers, underscores and periods."
        />
        <TextField
          label="Password"
          required
          type="password"
          autoComplete="new-password"
          value={form.password}
          onChange={set('password')}
          error={fieldError('password')}
        />
        <Button type="submit" block busy={busy} disabled={!form.username || !form.password}>
          Continue
        </Button>
        <p className="auth__switch">
          <Link to={`/login${loc.search}`}>Already have an account?</Link>
        </p>
      </form>
    </AuthShell>
  );
}
