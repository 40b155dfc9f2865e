# Run from the repository root: python3 harness/results/testdata/own_cases.py
# lembas-check's own context cases. Every expectation is written out by hand from the rules; only
# SHA-256 prefixes (hashlib) and the 52-read compaction case's repetitive steps are computed.
import json, hashlib
def sha(s): return hashlib.sha256(s.encode()).hexdigest()[:8]
cases = []
def case(about, steps, expect, **kw):
    c = {"about": about}
    c.update(kw)
    c["steps"] = steps
    c["expect"] = expect
    assert len(steps) == len(expect)
    cases.append(c)

# A: several hunks
before = "".join(f"l{i}\n" for i in range(1, 21))
after = before.replace("l2\n", "L2\n", 1).replace("l18\n", "L18\n")
case("Several hunks in one diff: changes 15 unchanged lines apart are two hunks, each with at most three lines of context (context.md §5: `answer with the unified diff of the change (three lines of context, hunks only — the path is in the bracket)`).",
     [{"op": "edit", "id": "#0001", "path": "src/list.txt", "before": before, "after": after}],
     [f"[#0001 src/list.txt sha {sha(after)}]\n@@ -1,5 +1,5 @@\n l1\n-l2\n+L2\n l3\n l4\n l5\n@@ -15,6 +15,6 @@\n l15\n l16\n l17\n-l18\n+L18\n l19\n l20"])

# B: ends of a file, one-line ranges
b0 = "a\nb\nc\nd\ne\n"; b1 = "z\n" + b0; b2 = b1 + "f\n"
case("Insertions at the start and the end of a file, and a one-line range, in the unified format (context.md §5 `the unified diff of the change`): a range of one line is its number alone (`@@ -1 +1 @@`), as POSIX diff -u and git write it; the spec's case shows only `@@ -1,3 +1,3 @@`. lembas-check reading.",
     [{"op": "edit", "id": "#0b01", "path": "a.txt", "before": b0, "after": b1},
      {"op": "edit", "id": "#0b02", "path": "a.txt", "before": b1, "after": b2},
      {"op": "write", "id": "#0b03", "path": "one.txt", "before": "x\n", "after": "y\n"}],
     [f"[#0b01 a.txt sha {sha(b1)}]\n@@ -1,3 +1,4 @@\n+z\n a\n b\n c",
      f"[#0b02 a.txt sha {sha(b2)}]\n@@ -4,3 +4,4 @@\n c\n d\n e\n+f",
      f"[#0b03 one.txt sha {sha('y' + chr(10))}]\n@@ -1 +1 @@\n-x\n+y"])

case("A file without a line break at its end: the unified format's `\\ No newline at end of file` follows the line that lacks it, so adding or removing the final break is a change of that line (context.md §5 `the unified diff of the change`). lembas-check reading.",
     [{"op": "edit", "id": "#0b11", "path": "b.txt", "before": "a\nb", "after": "a\nb\n"},
      {"op": "edit", "id": "#0b12", "path": "c.txt", "before": "a\nb\nc\nd\ne", "after": "a\nb\nc\nd\n"}],
     [f"[#0b11 b.txt sha {sha('a' + chr(10) + 'b' + chr(10))}]\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b",
      f"[#0b12 c.txt sha {sha('a' + chr(10) + 'b' + chr(10) + 'c' + chr(10) + 'd' + chr(10))}]\n@@ -2,4 +2,3 @@\n b\n c\n d\n-e\n\\ No newline at end of file"])

# C: stub ranges
ten = "".join(f"line {i}\n" for i in range(1, 11))
assert sha(ten) == "e71d970d"
case("A stub only when the lines asked for lie wholly inside an earlier full read; a range reaching past it is read in full; the stub names the newest full read that holds the lines (context.md §2: `the lines asked for lie **wholly inside** that read's lines` … `a range reaching past the earlier read is read in full`).",
     [{"op": "read", "id": "#0c01", "path": "notes.md", "content": ten, "limit": 5},
      {"op": "read", "id": "#0c02", "path": "notes.md", "content": ten, "offset": 4, "limit": 4},
      {"op": "read", "id": "#0c03", "path": "notes.md", "content": ten, "offset": 5, "limit": 1},
      {"op": "read", "id": "#0c04", "path": "notes.md", "content": ten, "offset": 1, "limit": 10},
      {"op": "read", "id": "#0c05", "path": "notes.md", "content": ten}],
     ["[#0c01 notes.md lines 1-5 of 10 sha e71d970d]\n1: line 1\n2: line 2\n3: line 3\n4: line 4\n5: line 5\n\n(5 more lines — read again with offset 6)",
      "[#0c02 notes.md lines 4-7 of 10 sha e71d970d]\n4: line 4\n5: line 5\n6: line 6\n7: line 7\n\n(3 more lines — read again with offset 8)",
      "[#0c03 notes.md lines 5-5 of 10 sha e71d970d] Unchanged since #0c02, which already shows lines 4-7.",
      "[#0c04 notes.md lines 1-10 of 10 sha e71d970d]\n" + "\n".join(f"{i}: line {i}" for i in range(1, 11)),
      "[#0c05 notes.md lines 1-10 of 10 sha e71d970d] Unchanged since #0c04, which already shows lines 1-10."])

# D: the cap
lim = {"max_lines": 400, "max_chars": 40, "head_lines": 200, "head_chars": 12, "tail_lines": 3, "tail_chars": 1000}
case("The cap when head_chars binds: the head is the whole lines whose text, breaks between them included, fits head_chars (`line0\\nline1` is 11 of 12); the tail is tail_lines from what is left; a first line over head_chars is cut and the tail still follows; when head and tail leave nothing out the output is whole (loop.json cap.about: `keeps its head (as many whole lines as fit both head limits) and its tail (likewise, from what is left)` … `it is there whenever anything was left out`). lembas-check reading of how the breaks count.",
     [{"op": "output", "id": "#0d01", "tool": "bash", "args": {"command": "make"}, "text": "\n".join(f"line{i}" for i in range(10))},
      {"op": "output", "id": "#0d02", "tool": "bash", "args": {"command": "cat min.js"}, "text": "x" * 40 + "\nend"},
      {"op": "output", "id": "#0d03", "tool": "bash", "args": {"command": "cat five"}, "text": "aaaaa\nbbbbb\ncccccccccc\ndddddddddd\neeeeeeeeee"}],
     ["[#0d01]\nline0\nline1\n[5 lines elided, full output #0d01]\nline7\nline8\nline9",
      "[#0d02]\n" + "x" * 12 + " […cut]\n[0 lines elided, full output #0d02]\nend",
      "[#0d03]\naaaaa\nbbbbb\ncccccccccc\ndddddddddd\neeeeeeeeee"], limits=lim)

# E: recall
lim = {"max_lines": 3, "max_chars": 40000, "head_lines": 1, "head_chars": 20000, "tail_lines": 1, "tail_chars": 10000}
case("Recall of a capped output shows it in full and is not capped itself; a recall is stored (recall of a recall shows its lines); a stub is stored as the text it stands for (context.md §1 `Every result is stored with the session, in full — before any cap, and for a stub the text it stands for`; §4 `A recall is not capped, is not deduplicated, and is itself stored`).",
     [{"op": "output", "id": "#0e01", "tool": "bash", "args": {"command": "seq 5"}, "text": "1\n2\n3\n4\n5"},
      {"op": "recall", "id": "#0e02", "target": "#0e01"},
      {"op": "recall", "id": "#0e03", "target": "0e02", "offset": 2, "limit": 2},
      {"op": "output", "id": "#0e04", "tool": "grep", "args": {"pattern": "x"}, "text": "a:1\nb:2\nc:3\nd:4"},
      {"op": "output", "id": "#0e05", "tool": "grep", "args": {"pattern": "x"}, "text": "a:1\nb:2\nc:3\nd:4"},
      {"op": "recall", "id": "#0e06", "target": "#0e05"},
      {"op": "recall", "id": "#0e07", "target": "#0e01"}],
     ["[#0e01]\n1\n[3 lines elided, full output #0e01]\n5",
      "[#0e02 recall #0e01 lines 1-5 of 5]\n1\n2\n3\n4\n5",
      "[#0e03 recall #0e02 lines 2-3 of 5]\n2\n3",
      "[#0e04]\na:1\n[2 lines elided, full output #0e04]\nd:4",
      "[#0e05] Same result as #0e04.",
      "[#0e06 recall #0e05 lines 1-4 of 4]\na:1\nb:2\nc:3\nd:4",
      "[#0e07 recall #0e01 lines 1-5 of 5]\n1\n2\n3\n4\n5"], limits=lim)

# F: compaction over rows (50)
steps, expect, rows = [], [], []
for i in range(1, 53):
    c = f"file {i:02d}\n"
    steps.append({"op": "read", "id": f"#{i:04x}", "path": f"f{i:02d}.md", "content": c})
    expect.append(f"[#{i:04x} f{i:02d}.md lines 1-1 of 1 sha {sha(c)}]\n1: file {i:02d}")
    rows.append(f"| f{i:02d}.md | 1-1 of 1 | {sha(c)} | #{i:04x} |")
c = "file 01, changed\n"
steps.append({"op": "read", "id": "#0035", "path": "./f01.md", "content": c})
expect.append(f"[#0035 ./f01.md lines 1-1 of 1 sha {sha(c)}]\n1: file 01, changed")
rows = rows[1:] + [f"| ./f01.md | 1-1 of 1 | {sha(c)} | #0035 |"]   # f01's newest read, newest last
rows = rows[-50:]                                                      # at most compaction.rows, the newest
steps.append({"op": "compact"})
expect.append("## Files read before this summary\n\nRead a file again for its content; recall shows a result by its id.\n\n| Path | Lines | sha | Result |\n|---|---|---|---|\n" + "\n".join(rows))
case("The compaction table over compaction.rows (50): 53 full reads of 52 files; f01.md's newest read (under another spelling) replaces its first and goes last; of the 52 rows the newest 50 are kept, so f02.md and f03.md drop out (loop.json compaction.about: `of those the newest full read of each file, newest last, at most rows`). lembas-check reading: the rows kept are the newest.",
     steps, expect)

# G: spellings
a2 = "alpha\nbeta\n"
case("One file under several spellings: what identifies the file is its absolute, resolved path; the bracket and the table name the path as the call gave it (context.md §1: `What identifies the file — for a stub, for the table's \"newest read of each path\" … — is its absolute, resolved path`).",
     [{"op": "read", "id": "#7001", "path": "a.md", "content": "alpha\n"},
      {"op": "read", "id": "#7002", "path": "./a.md", "content": "alpha\n"},
      {"op": "read", "id": "#7003", "path": "docs/../a.md", "content": "alpha\n"},
      {"op": "read", "id": "#7004", "path": "./a.md", "content": a2},
      {"op": "compact"}],
     ["[#7001 a.md lines 1-1 of 1 sha b6a98d9c]\n1: alpha",
      "[#7002 ./a.md lines 1-1 of 1 sha b6a98d9c] Unchanged since #7001, which already shows lines 1-1.",
      "[#7003 docs/../a.md lines 1-1 of 1 sha b6a98d9c] Unchanged since #7001, which already shows lines 1-1.",
      f"[#7004 ./a.md lines 1-2 of 2 sha {sha(a2)}]\n1: alpha\n2: beta",
      f"## Files read before this summary\n\nRead a file again for its content; recall shows a result by its id.\n\n| Path | Lines | sha | Result |\n|---|---|---|---|\n| ./a.md | 1-2 of 2 | {sha(a2)} | #7004 |"])

app = "export const app = 1\n"
case("Relative paths resolve against the start directory (`cwd`, lembas-check's own field; filesystem.md Paths: `Relative paths resolve against the session's start directory`): /proj/src/app.ts and src/app.ts are one file, app.ts another with the same content.",
     [{"op": "read", "id": "#8001", "path": "/proj/src/app.ts", "content": app},
      {"op": "read", "id": "#8002", "path": "src/app.ts", "content": app},
      {"op": "read", "id": "#8003", "path": "app.ts", "content": app},
      {"op": "read", "id": "#8004", "path": "../proj/app.ts", "content": app}],
     [f"[#8001 /proj/src/app.ts lines 1-1 of 1 sha {sha(app)}]\n1: export const app = 1",
      f"[#8002 src/app.ts lines 1-1 of 1 sha {sha(app)}] Unchanged since #8001, which already shows lines 1-1.",
      f"[#8003 app.ts lines 1-1 of 1 sha {sha(app)}]\n1: export const app = 1",
      f"[#8004 ../proj/app.ts lines 1-1 of 1 sha {sha(app)}] Unchanged since #8003, which already shows lines 1-1."], cwd="/proj")

# H: created, deleted
case("A new file, then deleted (`delete` is lembas-check's own step: the spec's step ops have none; context.md §5: `write of a new file answers [#0023 docs/new.md sha 52b6e3a0] Created, 14 lines.` … `A deleted file is [#0024 old.md deleted]`); what is stored for a created file is its sentence.",
     [{"op": "write", "id": "#9001", "path": "old.md", "after": "x\n"},
      {"op": "delete", "id": "#9002", "path": "old.md"},
      {"op": "recall", "id": "#9003", "target": "#9001"}],
     [f"[#9001 old.md sha {sha('x' + chr(10))}] Created, 1 lines.",
      "[#9002 old.md deleted]",
      "[#9003 recall #9001 lines 1-1 of 1]\nCreated, 1 lines."])

# I: ids over 4 digits
case("Ids past #ffff have more digits (loop.json ids.about: `at least 4 digits (#0001, #000a, #10000)`); recall finds them with or without the # (context.md §4 `The # may be left out of the argument`).",
     [{"op": "read", "id": "#10000", "path": "a.md", "content": "alpha\n"},
      {"op": "output", "id": "#1000a", "tool": "list", "args": {"path": "."}, "text": "a.md"},
      {"op": "output", "id": "#1000b", "tool": "list", "args": {"path": "."}, "text": "a.md"},
      {"op": "recall", "id": "#1000c", "target": "10000"},
      {"op": "recall", "id": "#1000d", "target": "#fffff"}],
     ["[#10000 a.md lines 1-1 of 1 sha b6a98d9c]\n1: alpha",
      "[#1000a]\na.md",
      "[#1000b] Same result as #1000a.",
      "[#1000c recall #10000 lines 1-1 of 1]\n1: alpha",
      "[#1000d] No stored result #fffff in this session."])

# J: by_result
case("A repeated search names the full result, never a stub; other arguments or another tool are another call (context.md §6: `a call with the same arguments (compared as JSON with sorted keys) as an earlier one in the dedupe table, whose result is the same text`; loop.json dedupe.about `Stubs point at the full result, never at another stub`).",
     [{"op": "output", "id": "#a001", "tool": "grep", "args": {"pattern": "TODO", "path": "src"}, "text": "src/a.ts:3: // TODO"},
      {"op": "output", "id": "#a002", "tool": "grep", "args": {"path": "src", "pattern": "TODO"}, "text": "src/a.ts:3: // TODO"},
      {"op": "output", "id": "#a003", "tool": "grep", "args": {"path": "src", "pattern": "TODO", "glob": "*.ts"}, "text": "src/a.ts:3: // TODO"},
      {"op": "output", "id": "#a004", "tool": "search", "args": {"pattern": "TODO", "path": "src"}, "text": "src/a.ts:3: // TODO"},
      {"op": "output", "id": "#a005", "tool": "grep", "args": {"pattern": "TODO", "path": "src"}, "text": "src/a.ts:3: // TODO"}],
     ["[#a001]\nsrc/a.ts:3: // TODO",
      "[#a002] Same result as #a001.",
      "[#a003]\nsrc/a.ts:3: // TODO",
      "[#a004]\nsrc/a.ts:3: // TODO",
      "[#a005] Same result as #a001."])

# K: apply_patch
a0 = "const a = 1\nexport { a }\n"; a1 = "const a = 2\nexport { a }\n"
new14 = "".join(f"line {i}\n" for i in range(1, 15))
case("An apply_patch over several files answers the id alone, then each file in its own bracket with its change, in the patch's order: a changed file's diff under `[path sha …]` (the new content's hash), a created file's sentence, a deleted file's bracket (context.md §5: `An apply_patch over several files answers the id alone, then each file in its own bracket with its change, in the patch's order`).",
     [{"op": "apply_patch", "id": "#0025", "files": [{"path": "src/a.ts", "before": a0, "after": a1}, {"path": "docs/new.md", "after": new14}, {"path": "old.md", "before": "gone\n"}]}],
     [f"[#0025]\n[src/a.ts sha {sha(a1)}]\n@@ -1,2 +1,2 @@\n-const a = 1\n+const a = 2\n export {{ a }}\n[docs/new.md sha {sha(new14)}] Created, 14 lines.\n[old.md deleted]"])

case("An apply_patch over one file answers as that file's edit, write or deletion does, its bracket carrying the id; a file of a patch over several that the patch leaves as it was is its bracket alone; recall shows the whole patch result, which is stored (context.md §5: `An apply_patch over several files answers the id alone, then each file in its own bracket`; §1 `Every result is stored with the session, in full`). lembas-check reading for one file, which the spec gives no form of its own.",
     [{"op": "apply_patch", "id": "#0f21", "files": [{"path": "src/a.ts", "before": a0, "after": a1}]},
      {"op": "apply_patch", "id": "#0f22", "files": [{"path": "b.md", "after": "b\n"}]},
      {"op": "apply_patch", "id": "#0f23", "files": [{"path": "b.md", "before": "b\n"}]},
      {"op": "apply_patch", "id": "#0f24", "files": [{"path": "same.md", "before": "s\n", "after": "s\n"}, {"path": "c.md", "before": "c\n", "after": "C\n"}]},
      {"op": "recall", "id": "#0f25", "target": "#0f24"}],
     [f"[#0f21 src/a.ts sha {sha(a1)}]\n@@ -1,2 +1,2 @@\n-const a = 1\n+const a = 2\n export {{ a }}",
      f"[#0f22 b.md sha {sha('b' + chr(10))}] Created, 1 lines.",
      "[#0f23 b.md deleted]",
      f"[#0f24]\n[same.md sha {sha('s' + chr(10))}]\n[c.md sha {sha('C' + chr(10))}]\n@@ -1 +1 @@\n-c\n+C",
      f"[#0f25 recall #0f24 lines 1-5 of 5]\n[same.md sha {sha('s' + chr(10))}]\n[c.md sha {sha('C' + chr(10))}]\n@@ -1 +1 @@\n-c\n+C"])

x0 = "x\nb\nc\n"; x1 = "y\nb\nc\n"
case("An apply_patch's result is capped like any output, the first line kept: what follows the id is one output, its elided line naming the patch's id, and recall shows it whole (context.md §5: `The diff is capped like any output, the first line kept`). lembas-check reading: the files' brackets and changes are capped together, as one result.",
     [{"op": "apply_patch", "id": "#0f31", "files": [{"path": "a.txt", "before": x0, "after": x1}, {"path": "b.txt", "after": "new\n"}]},
      {"op": "recall", "id": "#0f32", "target": "#0f31"}],
     [f"[#0f31]\n[a.txt sha {sha(x1)}]\n@@ -1,3 +1,3 @@\n[3 lines elided, full output #0f31]\n c\n[b.txt sha {sha('new' + chr(10))}] Created, 1 lines.",
      f"[#0f32 recall #0f31 lines 1-7 of 7]\n[a.txt sha {sha(x1)}]\n@@ -1,3 +1,3 @@\n-x\n+y\n b\n c\n[b.txt sha {sha('new' + chr(10))}] Created, 1 lines."],
     limits={"max_lines": 5, "max_chars": 1000, "head_lines": 2, "head_chars": 1000, "tail_lines": 2, "tail_chars": 1000})

out = {"about": "lembas-check's own context cases (the spec's conformance/context.json format; `delete` steps and `cwd` are lembas-check's additions): rules context.md and loop.json `context` state that the spec's 12 cases do not reach — several hunks, the ends of a file and its last line break in a diff, stub ranges, the cap when head_chars binds, recall of capped output and of stubs, the compaction table over its rows, one file under several spellings, deleted files, ids past #ffff, repeated searches, apply_patch over one and several files (`apply_patch` steps are lembas-check's too). Each case's about quotes its rule.", "cases": cases}
open("conformance/cases/context.json", "w").write(json.dumps(out, indent=2, ensure_ascii=False) + "\n")
print(len(cases))
