"""A view as the change since the one before it (issue 31): RFC 6902 JSON Patch, three
operations (`add`, `remove`, `replace`), made here and applied by the pages
(static/js/patch.js) and by any client that asks for patches (docs/api.md).

`diff(old, new)` walks both views: an object's keys are compared one by one, a list of
the same length item by item, a list that only grew gets its new items added at the
end; anything else that differs is replaced whole. Equality is JSON's: `1`, `1.0` and
`true` differ (Python's `==` would call them equal and lose the change).
"""

from __future__ import annotations

from typing import Any

Patch = list[dict[str, Any]]


def same(a: Any, b: Any) -> bool:
    """Equal as JSON values (types included: True is not 1, 1 is not 1.0)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(v, b[k]) for k, v in a.items())
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def diff(old: Any, new: Any) -> Patch:
    """The operations that turn `old` into `new` (both JSON values)."""
    out: Patch = []
    _diff(old, new, "", out)
    return out


def _diff(old: Any, new: Any, path: str, out: Patch) -> None:
    if type(old) is dict and type(new) is dict:
        for key in old:
            if key not in new:
                out.append({"op": "remove", "path": f"{path}/{_escape(key)}"})
        for key, value in new.items():
            where = f"{path}/{_escape(key)}"
            if key not in old:
                out.append({"op": "add", "path": where, "value": value})
            elif not same(old[key], value):
                _diff(old[key], value, where, out)
        return
    if type(old) is list and type(new) is list:
        if len(old) == len(new):
            for i, (a, b) in enumerate(zip(old, new, strict=True)):
                if not same(a, b):
                    _diff(a, b, f"{path}/{i}", out)
            return
        if len(new) > len(old) and all(same(a, b) for a, b in zip(old, new, strict=False)):
            for i in range(len(old), len(new)):
                out.append({"op": "add", "path": f"{path}/{i}", "value": new[i]})
            return
    out.append({"op": "replace", "path": path, "value": new})


def apply(doc: Any, patch: Patch) -> Any:
    """`doc` with `patch` applied (in place where it can; returns the result)."""
    for op in patch:
        path = op["path"]
        if path == "":
            doc = op.get("value")
            continue
        parts = [p.replace("~1", "/").replace("~0", "~") for p in path.split("/")[1:]]
        parent = doc
        for part in parts[:-1]:
            parent = parent[int(part)] if isinstance(parent, list) else parent[part]
        last = parts[-1]
        if isinstance(parent, list):
            index = len(parent) if last == "-" else int(last)
            if op["op"] == "add":
                parent.insert(index, op["value"])
            elif op["op"] == "remove":
                del parent[index]
            else:
                parent[index] = op["value"]
        elif op["op"] == "remove":
            del parent[last]
        else:
            parent[last] = op["value"]
    return doc
