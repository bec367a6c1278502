import readline from 'node:readline';

/** What an app asks for with AUTHORIZE, shown to the person before anything is granted. */
export interface ConsentRequest {
  application: { id: string; name: string; icon: string | null; description?: string };
  scopes: string[];
  /** The account that would grant it. */
  user: { id: string; username: string; global_name?: string | null };
  /** How the app reached the local client. */
  transport: 'ipc' | 'websocket';
}

/**
 * Asks the person whether an app may be authorized. Implementations: the terminal (TerminalPrompter), automatic
 * approval for development (AutoApprovePrompter), and later the web client (any UI that can answer yes or no: it
 * receives the request and resolves the promise). A prompter that cannot ask resolves false.
 */
export interface ConsentPrompter {
  ask(request: ConsentRequest): Promise<boolean>;
}

/** `--dev`: every request is approved without asking. Never use it for an account that matters. */
export class AutoApprovePrompter implements ConsentPrompter {
  readonly asked: ConsentRequest[] = [];
  async ask(request: ConsentRequest): Promise<boolean> {
    this.asked.push(request);
    return true;
  }
}

/**
 * Asks on a terminal, one request at a time (a second app waits for the first answer). Without a terminal on
 * input, requests are refused rather than hanging forever.
 */
export class TerminalPrompter implements ConsentPrompter {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly input: NodeJS.ReadableStream & { isTTY?: boolean } = process.stdin,
    private readonly output: NodeJS.WritableStream = process.stdout,
  ) {}

  ask(request: ConsentRequest): Promise<boolean> {
    const run = this.queue.then(() => this.prompt(request));
    this.queue = run.catch(() => false);
    return run;
  }

  private prompt(r: ConsentRequest): Promise<boolean> {
    if (this.input === process.stdin && !process.stdin.isTTY) return Promise.resolve(false);
    const rl = readline.createInterface({ input: this.input, output: this.output, terminal: false });
    const who = r.user.global_name ? `${r.user.global_name} (@${r.user.username})` : `@${r.user.username}`;
    const lines = [
      '',
      `"${r.application.name}" (application ${r.application.id}) asks to connect to your Accord account ${who}.`,
      `It would be allowed: ${r.scopes.join(', ')}`,
      'Authorize? [y/N] ',
    ];
    return new Promise((resolve) => {
      rl.question(lines.join('\n'), (answer) => {
        // Answer before closing: close() emits 'close' at once, which would settle it as a refusal.
        resolve(/^\s*y(es)?\s*$/i.test(answer));
        rl.close();
      });
      rl.once('close', () => resolve(false));
    });
  }
}
