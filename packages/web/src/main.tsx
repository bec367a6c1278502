import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { App } from './app/App.js';
import { SessionProvider } from './lib/session.js';
import './styles/tokens.css';
import './styles/base.css';
import './styles/ui.css';
import './styles/auth.css';
import './styles/chat.css';
import './styles/phone.css';
import './styles/a11y.css';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <BrowserRouter>
      <SessionProvider>
        <App />
      </SessionProvider>
    </BrowserRouter>
  </StrictMode>,
);
