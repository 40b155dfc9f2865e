"""The worked example of a harness mapping for the fs_access area: in your project this file is a
few lines, a call into your own code that builds the session's view and applies one operation:
    def fs_access(case): return answer_of(myproject.view(case).apply(case["op"], case["path"]))
It is written out here, as a small view of a tree, so that the example runs on its own. The words
are filesystem.md's Errors table and its listing marks."""

from typing import Dict, List, Optional, Tuple

from lembas_adapter import Skip
from lembas_adapter.types import FsAccessAnswer, FsAccessCase

LEVELS = ["none", "ro", "stage", "commit"]
NONE, RO, STAGE, COMMIT = 0, 1, 2, 3

ERRORS = {
    "no_such_file": "No such file or directory: {}",
    "not_a_directory": "Not a directory: {}",
    "is_a_directory": "Is a directory: {}",
    "already_exists": "Already exists: {}",
    "access_denied": "Access denied: {} is not open to this session.",
    "read_only": "Read-only: {} can be read in this session but not changed.",
    "not_committed": "Not committed: this session may change {} but not commit it; the change stays staged.",
    "nothing_to_commit": "Nothing to commit: {} is not in a repository.",
}


class Refusal(Exception):
    """An operation's refusal: the error's text is the answer."""

    def __init__(self, code: str, path: str) -> None:
        super().__init__(ERRORS[code].format(path))


def resolve(cwd: str, p: str) -> str:
    """filesystem.md *Paths*: joined to cwd, `.` and `..` by their text (`..` above `/` stays)."""
    parts: List[str] = []
    for name in (p if p.startswith("/") else cwd + "/" + p).split("/"):
        if name in ("", "."):
            continue
        if name == "..":
            if parts:
                parts.pop()
        else:
            parts.append(name)
    return "/" + "/".join(parts)


def parent(p: str) -> str:
    i = p.rfind("/")
    return "/" if i <= 0 else p[:i]


def base(p: str) -> str:
    return p[p.rfind("/") + 1:]


class View:
    """One session's view: the tree (path -> dir, file or mount), its grants and its floor."""

    def __init__(self, case: FsAccessCase) -> None:
        self.nodes: Dict[str, str] = {"/": "dir"}
        for t in case.get("tree", []):
            self.add(resolve("/", t), "dir" if t.endswith("/") else "file")
        for m in case.get("mounts", []):
            self.add(resolve("/", m), "mount")
        self.grants = {resolve("/", k): LEVELS.index(v) for k, v in case.get("grants", {}).items()}
        self.floor = {resolve("/", k): LEVELS.index(v) for k, v in case.get("floor", {}).items()}
        # What the user's forge account may do in a mount: no level there goes above it.
        self.forge = {resolve("/", k): LEVELS.index(v) for k, v in case.get("forge", {}).items()}
        self.cwd = resolve("/", case.get("cwd", "/"))
        # A passage is at none with a grant or floor at ro or above below it.
        self.passages = set()
        for k in list(self.grants) + list(self.floor):
            if self.level(k) < RO:
                continue
            q = k
            while q != "/":
                q = parent(q)
                self.passages.add(q)

    def add(self, p: str, kind: str) -> None:
        if p in self.nodes:
            if kind == "mount":
                self.nodes[p] = "mount"
            return
        if p != "/":
            self.add(parent(p), "dir")
        self.nodes[p] = kind

    def is_dir(self, p: str) -> bool:
        return self.nodes.get(p) in ("dir", "mount")

    def level(self, p: str) -> int:
        """The most specific grant at or above p (none without one), lowered to the most specific floor
        and to the forge account's level in its mount."""
        grant: Optional[int] = None
        cap: Optional[int] = None
        forge = COMMIT
        q = p
        while True:
            grant = self.grants.get(q) if grant is None else grant
            cap = self.floor.get(q) if cap is None else cap
            forge = min(forge, self.forge.get(q, COMMIT))
            if q == "/":
                break
            q = parent(q)
        return min(NONE if grant is None else grant, COMMIT if cap is None else cap, forge)

    def passage(self, p: str) -> bool:
        return p in self.passages and self.level(p) == NONE

    def visible(self, p: str) -> bool:
        return p in self.nodes and self.level(p) >= RO

    def nearest(self, p: str) -> Optional[Tuple[str, bool, bool]]:
        """The nearest ancestor that is visible or a passage: (it, a file, a passage)."""
        a = p
        while a != "/":
            a = parent(a)
            if self.visible(a):
                return a, self.nodes[a] == "file", False
            if self.passage(a):
                return a, False, True
        return None

    def unseen(self, p: str) -> Refusal:
        """A path the model cannot see is answered by what it knows: its nearest visible ancestor."""
        n = self.nearest(p)
        if self.passage(p) or n is None or n[2]:
            return Refusal("access_denied", p)
        if n[1]:
            return Refusal("not_a_directory", n[0])
        return Refusal("no_such_file", p)

    def entries(self, d: str) -> List[str]:
        writable = self.level(d) >= STAGE
        kids = [p for p in self.nodes if p != "/" and parent(p) == d and self.level(p) >= RO]
        kids.sort(key=lambda p: (not self.is_dir(p), base(p).encode()))
        return [base(p) + ("/" if self.is_dir(p) else "") + (" [mount]" if self.nodes[p] == "mount" else "")
                + (" [read-only]" if self.level(p) == RO and writable else "") for p in kids]

    def create(self, p: str, kind: str) -> None:
        """A new file or directory at p: its parent must be a visible directory (or made, at stage)."""
        n = self.nearest(p)
        if self.passage(p) or n is None or n[2]:
            raise Refusal("access_denied", p)
        if n[1]:
            raise Refusal("not_a_directory", n[0])
        if self.level(p) == RO:
            raise Refusal("read_only", p)
        if self.level(p) == NONE:
            raise Refusal("access_denied", p)
        dirs = []
        q = parent(p)
        while q != n[0]:
            dirs.insert(0, q)
            q = parent(q)
        for d in dirs:
            if self.level(d) < STAGE:
                raise Refusal("read_only", d)
        self.add(p, kind)

    def in_mount(self, p: str) -> bool:
        q = p
        while True:
            if self.nodes.get(q) == "mount":
                return True
            if q == "/":
                return False
            q = parent(q)

    def removable(self, p: str) -> None:
        """rm needs stage on the path and on everything below it; a mount (or one below) is refused."""
        if p == "/" or self.nodes.get(p) == "mount" or self.level(p) < STAGE:
            raise Refusal("read_only", p)
        # Depth first, by name: a directory's names, each followed by what is below it.
        for d in sorted((q for q in self.nodes if q.startswith(p + "/")), key=lambda q: q.encode().split(b"/")):
            if self.level(d) == NONE:
                raise Refusal("access_denied", p)
            if self.nodes[d] == "mount" or self.level(d) == RO:
                raise Refusal("read_only", d)

    def apply(self, op: str, path: str) -> FsAccessAnswer:
        p = resolve(self.cwd, path)
        if op == "level":
            return {"level": LEVELS[self.level(p)], "passage": self.passage(p)}
        seen = self.visible(p)
        if op in ("list", "read", "rm", "commit") and not seen:
            raise self.unseen(p)
        if op == "list":
            if not self.is_dir(p):
                raise Refusal("not_a_directory", p)
            return {"entries": self.entries(p)}
        if op == "read":
            return {"entries": self.entries(p)} if self.is_dir(p) else {"ok": True}
        if op == "write":
            if not seen:
                self.create(p, "file")
            elif self.is_dir(p):
                raise Refusal("is_a_directory", p)
            elif self.level(p) < STAGE:
                raise Refusal("read_only", p)
            return {"ok": True}
        if op == "mkdir":
            if not seen:
                self.create(p, "dir")
            elif not self.is_dir(p):
                raise Refusal("already_exists", p)
            return {"ok": True}
        if op == "rm":
            self.removable(p)
            return {"ok": True}
        if op == "commit":
            if not self.in_mount(p):
                raise Refusal("nothing_to_commit", p)
            if self.level(p) == RO:
                raise Refusal("read_only", p)
            if self.level(p) == STAGE:
                raise Refusal("not_committed", p)
            return {"ok": True}
        # The listing texts, mv and the read-before-change refusals are not mapped in this example.
        raise Skip(f"the example maps level, list, read, write, mkdir, rm and commit, not {op!r}")


def fs_access(case: FsAccessCase) -> FsAccessAnswer:
    try:
        return View(case).apply(case["op"], case.get("path", ""))
    except Refusal as e:
        return {"error": str(e)}
