/**
 * The files a thread's agent sees, as the page's files panel and viewer get them.
 */

/** A file or folder of the tree the agent sees. */
export interface FileEntry {
  path: string;
  isDir: boolean;
  size: number;
  modifiedAt?: string;
}

/** A page of a file (lines), for the viewer. */
export interface FilePage {
  path: string;
  lines: string[];
  offset: number;
  totalLines: number;
  binary: boolean;
  size: number;
  /** A binary file's image type by its first bytes (PNG, JPEG, GIF or WebP; core/tool-image-check.ts `imageTypeOf`). */
  image?: string;
}
