/** A node of the parsed markdown tree, as the renderer walks it. */
export interface MdNode {
  type: string;
  content?: string | MdNode[];
  [key: string]: unknown;
}
