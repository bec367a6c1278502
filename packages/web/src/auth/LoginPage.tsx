import { useState, type FormEvent } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { readableError } from '../lib/api/errors.js';
import { useSession } from '../lib/session.js';
import { useAction } from '../lib/use-action.js';
import { Banner, Button, TextField } from '../lib/ui/index.js';
import { AuthShell } from './AuthShell.js';
import { safeRedirect } from './safe-redirect.js';

export function LoginPage() {
  const { token, api, signIn } = useSession();
  const loc = useLocation();
  const nav = useNavigate();
  const [login, setLogin] = useState('');
  const [password, setPassword] = useState('');
  const next = safeRedirect(loc.search);
  const { busy, error, run, fieldError } = useAction(async () => {
    signIn((await api.auth.login({ login, password })).token);
    nav(next, { replace: true });
  });
  if (token) return <Navigate to={next} replace />;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void run();
  };

  return (
    <AuthShell title="Welcome back!" subtitle="We're so excited to see you again!">
      <form onSubmit={submit} noValidate>
        {error && !fieldError('login') && !fieldError('password') ? (
          <div style={{ marginBottom: 16 }}>
            <Banner>{readableError(error)}</Banner>
          </div>
        ) : null}
        <TextField
          label="Email or username"
          required
          autoComplete="username"
          value={login}
          onChange={(e) => setLogin(e.target.value)}
          error={fieldError('login')}
          autoFocus
        />
        <TextField
          label="Password"
          required
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={fieldError('password')}
        />
        <Button type="submit" block busy={busy} disabled={!login || !password}>
          Log In
        </Button>
        <p className="auth__switch">
          Need an account? <Link to={`/register${loc.search}`}>Register</Link>
        </p>
      </form>
    </AuthShell>
  );
}
