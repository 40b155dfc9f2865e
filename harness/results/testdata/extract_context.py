# Run from the repository root: python3 harness/results/testdata/extract_context.py
# Extracts the texts conformance/context.json, context.md and tools/recall.json fix beyond loop.json
# into harness/spec/extra/context.json. Run from the repo root.
import json, re, collections
S = "harness/spec/files/"
cases = json.load(open(S + "conformance/context.json"))["cases"]
md = open(S + "context.md").read()
recall = json.load(open(S + "tools/recall.json"))
loop = json.load(open(S + "loop.partial.json"))["context"]
t = collections.OrderedDict()
def put(k, text, source):
    t[k] = {"text": text, "source": source}

e = cases[0]["expect"][0]
line1 = e.split("\n")[1]
assert line1 == "1: const a = 1"
put("context.read.line", "{{n}}: " + line1[len("1: "):].replace("const a = 1", "{{line}}"),
    "conformance/context.json case 0 expect[0], its second line `1: const a = 1` (the read tool's body line)")

e = cases[1]["expect"][0]
more = e[e.index("5: line 5") + len("5: line 5"):]
assert more == "\n\n(5 more lines — read again with offset 6)", more
put("context.read.more", more.replace("(5 ", "({{n}} ").replace("offset 6)", "offset {{offset}})"),
    "conformance/context.json case 1 expect[0], after its last body line `5: line 5` (the read tool's note when lines remain)")

e = cases[9]["expect"][1]
put("context.read.empty", e.split("\n", 1)[1],
    "conformance/context.json case 9 expect[1], after its bracket (the read tool's body for an empty file)")

e = cases[7]["expect"][4]
head, sep, rows = e.partition("|---|---|---|---|\n")
table = head.replace(loop["compaction"]["heading"], "{{heading}}").replace(loop["compaction"]["line"], "{{line}}") + sep + "{{rows}}"
put("context.compaction.table", table,
    "conformance/context.json case 7 expect[4]: loop.json compaction.heading and .line, blank lines between, the table's head; its rows follow, one a line")
row = rows.split("\n")[0]
assert row == "| a.md | 1-1 of 1 | b6a98d9c | #2001 |"
put("context.compaction.row", row.replace("a.md", "{{path}}").replace("1-1 of 1", "{{lines}}").replace("b6a98d9c", "{{sha}}").replace("#2001", "{{id}}"),
    "conformance/context.json case 7 expect[4], its first row `| a.md | 1-1 of 1 | b6a98d9c | #2001 |`")
m = re.search(r"\| src/app\.ts \| (1-200 of 340) \| 1c9e04ab \| #0012 \|", md)
put("context.compaction.lines", m.group(1).replace("1-200", "{{from}}-{{to}}").replace("340", "{{of}}"),
    "context.md §7, the example row's Lines cell `1-200 of 340` (the cases' rows are all `1-1 of 1`)")

m = re.search(r"A deleted file is `(\[#0024 old\.md deleted\])`", md)
put("context.deleted", m.group(1).replace("#0024", "{{id}}").replace("old.md", "{{path}}"),
    "context.md §5, `A deleted file is [#0024 old.md deleted]` (loop.json has no template for it)")

d = recall["parameters"]["properties"]["limit"]["description"]
m = re.fullmatch(r"How many lines \(default (\d+)\)", d)
put("context.window", m.group(1),
    "tools/recall.json parameters.limit.description `How many lines (default 2000)`; context.md §3 `each has its own window (2000 lines from an offset)`, which the read tool shares")

e = cases[10]["expect"][0]
m = re.fullmatch(r"\[#5001\]\nx{20}( \[…cut\])\n\[0 lines elided, full output #5001\]", e)
assert "ends ` […cut]`" in loop["cap"]["about"]
put("context.cut", m.group(1),
    "conformance/context.json case 10 expect[0], after the 20 (head_chars) x's of the cut first line; loop.json cap.about `it is cut to it and ends ` […cut]``")

m = re.search(r"unified diff\s+of the change \((three) lines of context, hunks only", md)
assert m.group(1) == "three"
put("context.diff_context", "3",
    "context.md §5 `the unified diff of the change (three lines of context, hunks only — the path is in the bracket)`")

out = {"about": "The texts of context hygiene (context.md, conformance/context.json) that loop.json `context` does not carry: the read tool's body (its numbered lines, the note when lines remain, an empty file), the compaction table's layout, a deleted file's bracket, the end of a cut first line, the diff's three lines of context, and the 2000-line window of read and recall. Extracted by a script from the named sources; harness/results's tests check every one against its source.", "texts": t}
open("harness/spec/extra/context.json", "w").write(json.dumps(out, indent=2, ensure_ascii=False) + "\n")
