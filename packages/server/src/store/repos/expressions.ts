import { Repo } from './repo.js';

/** Emojis, stickers, soundboard sounds and the asset bytes behind them. */
export class ExpressionsRepo extends Repo {
}
