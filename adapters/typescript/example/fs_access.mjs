// The worked example of a harness mapping for the fs_access area: in your project this file is a
// few lines, a call into your own code that builds the session's view and applies one operation:
//   export const fs_access = (c) => answerOf(myView(c).apply(c.op, c.path));
// It is written out here, as a small view of a tree, so that the example runs on its own. The
// words are filesystem.md's Errors table and its listing marks.

import { Skip } from "../index.mjs";

/** @typedef {import("../index.mjs").FsAccessCase} FsAccessCase */
/** @typedef {import("../index.mjs").FsAccessAnswer} FsAccessAnswer */

const LEVELS = ["none", "ro", "stage", "commit"];
const [NONE, RO, STAGE, COMMIT] = [0, 1, 2, 3];

const ERRORS = {
  no_such_file: (/** @type {string} */ p) => `No such file or directory: ${p}`,
  not_a_directory: (/** @type {string} */ p) => `Not a directory: ${p}`,
  is_a_directory: (/** @type {string} */ p) => `Is a directory: ${p}`,
  already_exists: (/** @type {string} */ p) => `Already exists: ${p}`,
  access_denied: (/** @type {string} */ p) => `Access denied: ${p} is not open to this session.`,
  read_only: (/** @type {string} */ p) => `Read-only: ${p} can be read in this session but not changed.`,
  not_committed: (/** @type {string} */ p) =>
    `Not committed: this session may change ${p} but not commit it; the change stays staged.`,
  nothing_to_commit: (/** @type {string} */ p) => `Nothing to commit: ${p} is not in a repository.`,
};

/** An operation's refusal: the error's text is the answer. */
class Refusal extends Error {}
const refuse = (/** @type {keyof ERRORS} */ code, /** @type {string} */ p) => new Refusal(ERRORS[code](p));

/** filesystem.md *Paths*: joined to cwd, `.` and `..` by their text (`..` above `/` stays), `//` is `/`. */
function resolve(/** @type {string} */ cwd, /** @type {string} */ p) {
  const parts = [];
  for (const name of (p.startsWith("/") ? p : cwd + "/" + p).split("/")) {
    if (name === "" || name === ".") continue;
    if (name === "..") parts.pop();
    else parts.push(name);
  }
  return "/" + parts.join("/");
}

const parent = (/** @type {string} */ p) => (p.lastIndexOf("/") <= 0 ? "/" : p.slice(0, p.lastIndexOf("/")));
const base = (/** @type {string} */ p) => p.slice(p.lastIndexOf("/") + 1);
const join = (/** @type {string} */ d, /** @type {string} */ n) => (d === "/" ? "/" + n : d + "/" + n);

/** One session's view: the tree (path → "dir" | "file" | "mount"), its grants and its floor. */
class View {
  /** @param {FsAccessCase} c */
  constructor(c) {
    /** @type {Map<string, string>} */
    this.nodes = new Map([["/", "dir"]]);
    for (const t of c.tree ?? []) this.add(resolve("/", t), t.endsWith("/") ? "dir" : "file");
    for (const m of c.mounts ?? []) this.add(resolve("/", m), "mount");
    const levels = (/** @type {Record<string, string> | undefined} */ o) =>
      new Map(Object.entries(o ?? {}).map(([k, l]) => [resolve("/", k), LEVELS.indexOf(l)]));
    this.grants = levels(c.grants);
    this.floor = levels(c.floor);
    // What the user's forge account may do in a mount: no level there goes above it.
    this.forge = levels(c.forge);
    this.cwd = resolve("/", c.cwd ?? "/");
    // A passage is at none with a grant or floor at ro or above below it.
    /** @type {Set<string>} */
    this.passages = new Set();
    for (const k of [...this.grants.keys(), ...this.floor.keys()]) {
      if (this.level(k) < RO) continue;
      for (let q = k; q !== "/";) this.passages.add((q = parent(q)));
    }
  }

  add(/** @type {string} */ p, /** @type {string} */ kind) {
    const have = this.nodes.get(p);
    if (have !== undefined) {
      if (kind === "mount") this.nodes.set(p, "mount");
      return;
    }
    if (p !== "/") this.add(parent(p), "dir");
    this.nodes.set(p, kind);
  }

  isDir(/** @type {string} */ p) {
    const k = this.nodes.get(p);
    return k === "dir" || k === "mount";
  }

  /**
   * The most specific grant at or above p (none without one), lowered to the most specific floor
   * and to the forge account's level in its mount.
   */
  level(/** @type {string} */ p) {
    let grant, cap, forge = COMMIT;
    for (let q = p; ; q = parent(q)) {
      grant ??= this.grants.get(q);
      cap ??= this.floor.get(q);
      forge = Math.min(forge, this.forge.get(q) ?? COMMIT);
      if (q === "/") break;
    }
    return Math.min(grant ?? NONE, cap ?? COMMIT, forge);
  }

  passage(/** @type {string} */ p) {
    return this.passages.has(p) && this.level(p) === NONE;
  }

  visible(/** @type {string} */ p) {
    return this.nodes.has(p) && this.level(p) >= RO;
  }

  /** The nearest ancestor that is visible or a passage: what the model already knows of p. */
  nearest(/** @type {string} */ p) {
    for (let a = p; a !== "/";) {
      a = parent(a);
      if (this.visible(a)) return { at: a, file: this.nodes.get(a) === "file", passage: false };
      if (this.passage(a)) return { at: a, file: false, passage: true };
    }
    return null;
  }

  /** A path the model cannot see is answered by what it knows: its nearest visible ancestor. */
  unseen(/** @type {string} */ p) {
    const n = this.nearest(p);
    if (this.passage(p) || !n || n.passage) return refuse("access_denied", p);
    if (n.file) return refuse("not_a_directory", n.at);
    return refuse("no_such_file", p);
  }

  entries(/** @type {string} */ dir) {
    const writable = this.level(dir) >= STAGE;
    const kids = [...this.nodes.keys()].filter((p) => p !== "/" && parent(p) === dir && this.level(p) >= RO);
    kids.sort((a, b) => Number(this.isDir(b)) - Number(this.isDir(a)) || (base(a) < base(b) ? -1 : 1));
    return kids.map((p) => base(p) + (this.isDir(p) ? "/" : "") + (this.nodes.get(p) === "mount" ? " [mount]" : "") +
      (this.level(p) === RO && writable ? " [read-only]" : ""));
  }

  /** A new file or directory at p: its parent must be a visible directory (or made, at stage). */
  create(/** @type {string} */ p, /** @type {string} */ kind) {
    const n = this.nearest(p);
    if (this.passage(p) || !n || n.passage) throw refuse("access_denied", p);
    if (n.file) throw refuse("not_a_directory", n.at);
    const l = this.level(p);
    if (l === RO) throw refuse("read_only", p);
    if (l === NONE) throw refuse("access_denied", p);
    const dirs = [];
    for (let q = parent(p); q !== n.at; q = parent(q)) dirs.unshift(q);
    for (const d of dirs) if (this.level(d) < STAGE) throw refuse("read_only", d);
    this.add(p, kind);
  }

  inMount(/** @type {string} */ p) {
    for (let q = p; ; q = parent(q)) {
      if (this.nodes.get(q) === "mount") return true;
      if (q === "/") return false;
    }
  }

  /** @returns {FsAccessAnswer} */
  apply(/** @type {string} */ op, /** @type {string} */ path) {
    const p = resolve(this.cwd, path);
    if (op === "level") return { level: LEVELS[this.level(p)], passage: this.passage(p) };
    const seen = this.visible(p);
    switch (op) {
      case "list":
        if (!seen) throw this.unseen(p);
        if (!this.isDir(p)) throw refuse("not_a_directory", p);
        return { entries: this.entries(p) };
      case "read":
        if (!seen) throw this.unseen(p);
        return this.isDir(p) ? { entries: this.entries(p) } : { ok: true };
      case "write":
        if (!seen) this.create(p, "file");
        else if (this.isDir(p)) throw refuse("is_a_directory", p);
        else if (this.level(p) < STAGE) throw refuse("read_only", p);
        return { ok: true };
      case "mkdir":
        if (!seen) this.create(p, "dir");
        else if (!this.isDir(p)) throw refuse("already_exists", p);
        return { ok: true };
      case "rm":
        if (!seen) throw this.unseen(p);
        this.removable(p);
        return { ok: true };
      case "commit":
        if (!seen) throw this.unseen(p);
        if (!this.inMount(p)) throw refuse("nothing_to_commit", p);
        if (this.level(p) === RO) throw refuse("read_only", p);
        if (this.level(p) === STAGE) throw refuse("not_committed", p);
        return { ok: true };
    }
    // The listing texts, mv and the read-before-change refusals are not mapped in this example.
    throw new Skip(`the example maps level, list, read, write, mkdir, rm and commit, not ${JSON.stringify(op)}`);
  }

  /** rm needs stage on the path and on everything below it; a mount (or one below) is refused. */
  removable(/** @type {string} */ p) {
    if (p === "/" || this.nodes.get(p) === "mount" || this.level(p) < STAGE) throw refuse("read_only", p);
    // Depth first, by name: a directory's names, each followed by what is below it.
    const key = (/** @type {string} */ q) => q.split("/").join("\u0000");
    const below = [...this.nodes.keys()].filter((q) => q.startsWith(p + "/")).sort((x, y) => (key(x) < key(y) ? -1 : 1));
    for (const d of below) {
      const l = this.level(d);
      if (l === NONE) throw refuse("access_denied", p);
      if (this.nodes.get(d) === "mount" || l === RO) throw refuse("read_only", d);
    }
  }
}

/** @param {FsAccessCase} c @returns {FsAccessAnswer} */
export function fs_access(c) {
  try {
    return new View(c).apply(c.op, c.path ?? "");
  } catch (e) {
    if (e instanceof Refusal) return { error: e.message };
    throw e;
  }
}
