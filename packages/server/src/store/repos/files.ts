import { Repo } from './repo.js';

/** Uploaded files and attachments. */
export class FilesRepo extends Repo {
}
