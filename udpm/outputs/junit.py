"""JUnit XML for CI systems: one test case per claim.

A claim is a *failure* when it regressed (it has problems and is not inconclusive), an *error*
when its check crashed or decided nothing (status ``error``), *skipped* with the reason when it
is inconclusive or pending, and passes otherwise.  Test cases are grouped by paper, one
``<testsuite>`` each, in the order of the run.

>>> from types import SimpleNamespace as NS
>>> from udpm.claims.evidence import Status
>>> def outcome(cid, status, problems=(), notes=""):
...     claim = NS(id=cid, paper=cid.split(".")[0], where="Theorem 1", summary="a statement")
...     result = NS(status=status, notes=notes, evidence="bounded", scope_text="alpha=1/2: n<=3")
...     return NS(claim=claim, result=result, seconds=0.5, problems=list(problems))
>>> xml = junit_xml([outcome("gs2010.thm1", Status.VERIFIED),
...                  outcome("gs2010.thm2", Status.TESTED, ["status tested, expected verified"]),
...                  outcome("gs2010.lemma3", Status.INCONCLUSIVE, ["status inconclusive: z3 timeout"], "z3 timeout")])
>>> print(xml.splitlines()[1])
<testsuites name="udpm" tests="3" failures="1" errors="0" skipped="1" time="1.500">
>>> verdict(outcome("x.y", Status.ERROR, ["status error: boom"], "boom"))
('error', 'status error: boom')
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import SimpleNamespace

from udpm.claims.evidence import Status


def verdict(o: object) -> tuple[str, str]:
    """('pass' | 'failure' | 'error' | 'skipped', the one-line reason) for one outcome."""
    status = o.result.status
    why = "; ".join(o.problems) or o.result.notes or str(status)
    if status is Status.ERROR:
        return "error", why
    if status is Status.INCONCLUSIVE:
        return "skipped", f"inconclusive: {o.result.notes or why}"
    if status is Status.PENDING:
        return "skipped", "pending: declared, not implemented"
    if o.problems:
        return "failure", why
    return "pass", ""


def junit_xml(outcomes: Sequence[object]) -> str:
    """The JUnit XML document (the schema junitparser and CI systems read)."""
    counts = {"failure": 0, "error": 0, "skipped": 0}
    suites: dict[str, ET.Element] = {}
    root = ET.Element("testsuites", name="udpm")
    total = 0.0
    for o in outcomes:
        paper = o.claim.paper
        if paper not in suites:
            suites[paper] = ET.SubElement(root, "testsuite", name=paper)
        case = ET.SubElement(
            suites[paper], "testcase", classname=f"udpm.{paper}", name=o.claim.id, time=f"{o.seconds:.3f}"
        )
        kind, why = verdict(o)
        if kind != "pass":
            counts[kind] += 1
            el = ET.SubElement(case, kind, message=why[:1000])
            if kind != "skipped":
                el.set("type", "regression" if kind == "failure" else "error")
                el.text = "\n".join(o.problems) or why
        ET.SubElement(case, "system-out").text = (
            f"{o.claim.where}: {o.claim.summary}\nstatus {o.result.status}, evidence {o.result.evidence}"
            + (f", grid {o.result.scope_text}" if o.result.scope_text else "")
        )
        total += o.seconds
    for suite in suites.values():
        cases = suite.findall("testcase")
        suite.set("tests", str(len(cases)))
        for kind, attr in (("failure", "failures"), ("error", "errors"), ("skipped", "skipped")):
            suite.set(attr, str(sum(c.find(kind) is not None for c in cases)))
        suite.set("time", f"{sum(float(c.get('time')) for c in cases):.3f}")
    root.set("tests", str(len(outcomes)))
    root.set("failures", str(counts["failure"]))
    root.set("errors", str(counts["error"]))
    root.set("skipped", str(counts["skipped"]))
    root.set("time", f"{total:.3f}")
    ET.indent(root)
    # attribute order as written (ElementTree keeps insertion order): name, tests, failures, errors, skipped, time
    for el in [root, *suites.values()]:
        attrs = dict(el.attrib)
        el.attrib.clear()
        for key in ("name", "tests", "failures", "errors", "skipped", "time"):
            if key in attrs:
                el.set(key, attrs[key])
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def write_junit(path: Path, outcomes: Sequence[object]) -> None:
    """Write :func:`junit_xml` to ``path`` atomically."""
    from udpm.internal.files import atomic_write

    atomic_write(Path(path), junit_xml(outcomes))


def from_document(doc: Mapping) -> list[SimpleNamespace]:
    """The outcomes :func:`junit_xml` reads, from a results document's claim records (a merged run's, say).

    >>> doc = {"claims": [{"id": "gs2010.thm1", "paper": "gs2010", "where": "Theorem 1", "statement": "s",
    ...        "status": "verified", "notes": "", "evidence": "bounded", "scope": "alpha=1/2: n<=3",
    ...        "problems": []}], "seconds": {"gs2010.thm1": 0.5}}
    >>> verdict(from_document(doc)[0])
    ('pass', '')
    """
    seconds = doc.get("seconds") or {}
    return [
        SimpleNamespace(
            claim=SimpleNamespace(id=c["id"], paper=c["paper"], where=c["where"], summary=c["statement"]),
            result=SimpleNamespace(
                status=Status(c["status"]), notes=c.get("notes") or "", evidence=c["evidence"], scope_text=c["scope"]
            ),
            seconds=float(seconds.get(c["id"], 0.0)),
            problems=list(c.get("problems") or []),
        )
        for c in doc["claims"]
    ]
