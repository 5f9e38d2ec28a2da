// RFC 6902 JSON Patch, the three operations the server sends (add, remove, replace): a
// view as the change since the version before (app/rooms/patches.py, docs/api.md).

const unescape = (part) => part.replaceAll("~1", "/").replaceAll("~0", "~");

/** `doc` with `patch` applied (changed in place where it can; returns the result).
 *  Throws on a path that does not exist: the caller then asks for a whole view. */
export function applyPatch(doc, patch) {
  for (const op of patch) {
    if (op.path === "") { doc = op.value; continue; }
    const parts = op.path.split("/").slice(1).map(unescape);
    let parent = doc;
    for (const part of parts.slice(0, -1)) {
      parent = Array.isArray(parent) ? parent[Number(part)] : parent[part];
      if (parent === null || typeof parent !== "object") throw new Error(`no ${op.path}`);
    }
    const last = parts[parts.length - 1];
    if (Array.isArray(parent)) {
      const index = last === "-" ? parent.length : Number(last);
      if (op.op === "add") parent.splice(index, 0, op.value);
      else if (op.op === "remove") parent.splice(index, 1);
      else parent[index] = op.value;
    } else if (op.op === "remove") delete parent[last];
    else parent[last] = op.value;
  }
  return doc;
}
