#!/usr/bin/env python3
"""Compare the public API of upstream simdnbt 0.10 with this workspace's simdnbt.

Input: rustdoc JSON (format 57) of both `simdnbt` crates and both `simdnbt-derive`
crates, made by `compare/api-diff.sh`. Every public item reachable from the crate
root is keyed by its path (methods as `Type::method`, variants as `Enum::Variant`,
trait impls as `Type :: impl Trait for Self`; a trait's implementors also under
the trait) and given a rendered signature. Auto-trait and blanket impls are left
out. Each upstream item is then "same", "different" or "missing" here.

Differences that are deliberate are listed in `allowed.txt` (one line per item
key, a tab, and the "Differences from upstream" row of docs/upstream.md it falls under); the
report marks every other difference as undocumented. A line with a third
column `behaviour` lists an item whose signature is the same and whose
behaviour differs on purpose: it is reported in its own section (and must
still exist upstream), not as a difference that went away.

Usage: api_diff.py UPSTREAM.json OURS.json UPSTREAM_DERIVE.json OURS_DERIVE.json ALLOWED OUT.md
"""

import json
import sys
from collections import Counter, OrderedDict


class Crate:
    def __init__(self, path):
        with open(path) as f:
            self.doc = json.load(f)
        self.index = self.doc["index"]
        self.name = self.item(self.doc["root"])["name"]

    def item(self, id_):
        return self.index.get(str(id_))

    def name_of(self, id_, fallback):
        item = self.item(id_) if id_ is not None else None
        if item and item.get("name"):
            return item["name"]
        return fallback.split("::")[-1]


def render_type(t, c, full=True):
    """A type as Rust source; `full=False` drops lifetimes (for impl keys)."""
    if t is None:
        return "()"
    (kind, v), = t.items()
    r = lambda x: render_type(x, c, full)
    if kind == "primitive":
        return v
    if kind == "generic":
        return v
    if kind == "resolved_path":
        return c.name_of(v.get("id"), v["path"]) + render_args(v.get("args"), c, full)
    if kind == "borrowed_ref":
        lt = (v["lifetime"] + " ") if (full and v["lifetime"]) else ""
        return "&" + lt + ("mut " if v["is_mutable"] else "") + r(v["type"])
    if kind == "raw_pointer":
        return "*" + ("mut " if v["is_mutable"] else "const ") + r(v["type"])
    if kind == "slice":
        return "[" + r(v) + "]"
    if kind == "array":
        return "[" + r(v["type"]) + "; " + v["len"] + "]"
    if kind == "tuple":
        return "(" + ", ".join(r(x) for x in v) + ("," if len(v) == 1 else "") + ")"
    if kind == "impl_trait":
        return "impl " + render_bounds(v, c, full)
    if kind == "dyn_trait":
        return "dyn " + " + ".join(render_poly(p, c, full) for p in v["traits"])
    if kind == "qualified_path":
        trait = ""
        if v.get("trait"):
            trait = " as " + c.name_of(v["trait"].get("id"), v["trait"]["path"])
        return "<" + r(v["self_type"]) + trait + ">::" + v["name"]
    if kind == "function_pointer":
        sig = v["sig"]
        ins = ", ".join(r(x[1]) for x in sig["inputs"])
        out = (" -> " + r(sig["output"])) if sig["output"] else ""
        return "fn(" + ins + ")" + out
    return "?" + kind


def render_args(args, c, full=True):
    if not args:
        return ""
    if "angle_bracketed" in args:
        ab = args["angle_bracketed"]
        parts = []
        for a in ab["args"]:
            (k, v), = a.items()
            if k == "lifetime":
                if full:
                    parts.append(v)
            elif k == "type":
                parts.append(render_type(v, c, full))
            elif k == "const":
                parts.append(v.get("expr", "?"))
            else:
                parts.append("_")
        for con in ab.get("constraints", []):
            binding = con.get("binding", {})
            if "equality" in binding:
                eq = binding["equality"]
                val = render_type(eq["type"], c, full) if "type" in eq else str(eq)
                parts.append(con["name"] + " = " + val)
            else:
                parts.append(con["name"] + ": " + render_bounds(binding.get("constraint", []), c, full))
        return ("<" + ", ".join(parts) + ">") if parts else ""
    if "parenthesized" in args:
        p = args["parenthesized"]
        out = (" -> " + render_type(p["output"], c, full)) if p.get("output") else ""
        return "(" + ", ".join(render_type(x, c, full) for x in p["inputs"]) + ")" + out
    return ""


def render_poly(p, c, full=True):
    tr = p["trait"]
    return c.name_of(tr.get("id"), tr["path"]) + render_args(tr.get("args"), c, full)


def render_bounds(bounds, c, full=True):
    out = []
    for b in bounds:
        if "trait_bound" in b:
            tb = b["trait_bound"]
            m = "?" if tb.get("modifier") == "maybe" else ""
            out.append(m + render_poly(tb, c, full))
        elif "outlives" in b:
            if full:
                out.append(b["outlives"])
        elif "use" in b:
            pass
    return " + ".join(out)


def render_generics(g, c, skip_synthetic=True):
    params = []
    for p in g["params"]:
        k = p["kind"]
        if "lifetime" in k:
            o = k["lifetime"]["outlives"]
            params.append(p["name"] + (": " + " + ".join(o) if o else ""))
        elif "type" in k:
            if skip_synthetic and k["type"].get("is_synthetic"):
                continue
            b = render_bounds(k["type"]["bounds"], c)
            params.append(p["name"] + (": " + b if b else ""))
        elif "const" in k:
            params.append("const " + p["name"] + ": " + render_type(k["const"]["type"], c))
    preds = []
    for w in g.get("where_predicates", []):
        if "bound_predicate" in w:
            bp = w["bound_predicate"]
            preds.append(render_type(bp["type"], c) + ": " + render_bounds(bp["bounds"], c))
        elif "lifetime_predicate" in w:
            lp = w["lifetime_predicate"]
            preds.append(lp["lifetime"] + ": " + " + ".join(lp["outlives"]))
    gp = ("<" + ", ".join(params) + ">") if params else ""
    wc = (" where " + ", ".join(preds)) if preds else ""
    return gp, wc


def render_fn(name, f, c):
    sig = f["sig"]
    gp, wc = render_generics(f["generics"], c)
    ins = []
    for pname, ty in sig["inputs"]:
        if pname == "self":
            if ty == {"generic": "Self"}:
                ins.append("self")
            elif "borrowed_ref" in ty and ty["borrowed_ref"]["type"] == {"generic": "Self"}:
                br = ty["borrowed_ref"]
                lt = (br["lifetime"] + " ") if br["lifetime"] else ""
                if lt:
                    ins.append("self: &" + lt + ("mut " if br["is_mutable"] else "") + "Self")
                else:
                    ins.append("&mut self" if br["is_mutable"] else "&self")
            else:
                ins.append("self: " + render_type(ty, c))
        else:
            ins.append(pname + ": " + render_type(ty, c))
    out = (" -> " + render_type(sig["output"], c)) if sig["output"] else ""
    h = f["header"]
    pre = ("const " if h.get("is_const") else "") + ("unsafe " if h.get("is_unsafe") else "")
    return pre + "fn " + name + gp + "(" + ", ".join(ins) + ")" + out + wc


def render_variant(item, c):
    v = item["inner"]["variant"]
    kind = v["kind"]
    if kind == "plain":
        return item["name"]
    if "tuple" in kind:
        fields = [render_type(c.item(f)["inner"]["struct_field"], c) for f in kind["tuple"] if f is not None]
        return item["name"] + "(" + ", ".join(fields) + ")"
    if "struct" in kind:
        fields = [c.item(f)["name"] + ": " + render_type(c.item(f)["inner"]["struct_field"], c) for f in kind["struct"]["fields"]]
        return item["name"] + " { " + ", ".join(fields) + " }"
    return item["name"]


AUTO = {"Send", "Sync", "Unpin", "UnwindSafe", "RefUnwindSafe", "Freeze", "StructuralPartialEq"}


STD_CRATES = {"core", "alloc", "std"}


def trait_name(trait, c):
    """A trait's name, prefixed with its crate when that is not std or the
    crate itself (`serde::Serialize` is not `simdnbt::Serialize`)."""
    name = c.name_of(trait.get("id"), trait["path"])
    entry = c.doc["paths"].get(str(trait.get("id")))
    if entry and entry["crate_id"] != 0:
        krate = {"serde_core": "serde"}.get(entry["path"][0], entry["path"][0])
        if krate not in STD_CRATES:
            return krate + "::" + name
    return name


def impl_key_and_sig(impl, c):
    trait = impl["trait"]
    tname = trait_name(trait, c)
    tshort = tname + render_args(trait.get("args"), c, full=False)
    self_short = render_type(impl["for"], c, full=False)
    key = "impl " + tshort + " for " + self_short
    gp, wc = render_generics(impl["generics"], c)
    sig = "impl" + gp + " " + tname + render_args(trait.get("args"), c) + " for " + render_type(impl["for"], c) + wc
    return key, sig


def collect(c, derive):
    """OrderedDict key -> (kind, signature)."""
    items = OrderedDict()
    root = c.item(c.doc["root"])
    seen_impls = set()

    def add(key, kind, sig):
        items.setdefault(key, (kind, sig))

    def type_impls(path, impl_ids):
        for iid in impl_ids:
            impl = c.item(iid)["inner"]["impl"]
            if impl["is_synthetic"] or impl["blanket_impl"] is not None or impl["is_negative"]:
                continue
            if impl["trait"] is None:
                for mid in impl["items"]:
                    m = c.item(mid)
                    if m.get("visibility") != "public":
                        continue
                    if "function" in m["inner"]:
                        sig = render_fn(m["name"], m["inner"]["function"], c)
                        # `-> Self` and `-> Name` are the same type for a type
                        # without parameters: render both as `Self`.
                        target = impl["for"].get("resolved_path")
                        if target and not target.get("args"):
                            me = c.name_of(target.get("id"), target["path"])
                            if sig.endswith("-> " + me):
                                sig = sig[: -len(me)] + "Self"
                        add(path + "::" + m["name"], "method", sig)
                    elif "assoc_const" in m["inner"]:
                        add(path + "::" + m["name"], "assoc const", "const " + m["name"] + ": " + render_type(m["inner"]["assoc_const"]["type"], c))
                continue
            tname = trait_name(impl["trait"], c)
            if tname in AUTO:
                continue
            key, sig = impl_key_and_sig(impl, c)
            add(path + " :: " + key, "trait impl", sig)
            seen_impls.add(iid)

    def walk(mod_id, path):
        mod = c.item(mod_id)
        for cid in mod["inner"]["module"]["items"]:
            it = c.item(cid)
            if it is None or it.get("visibility") != "public":
                continue
            inner = it["inner"]
            (kind, v), = inner.items()
            if kind == "use":
                if v["is_glob"]:
                    add(path + "::*", "re-export (glob)", "pub use " + v["source"] + "::*")
                    continue
                target = c.item(v["id"]) if v["id"] is not None else None
                if target is None:
                    add(path + "::" + v["name"], "re-export", "pub use " + v["source"])
                    continue
                it = dict(target)
                it["name"] = v["name"]
                cid = v["id"]
                inner = it["inner"]
                (kind, v), = inner.items()
            name = it["name"]
            p = path + "::" + name
            if kind == "module":
                add(p, "module", "mod " + name)
                walk(cid, p)
            elif kind == "struct":
                gp, wc = render_generics(v["generics"], c)
                add(p, "struct", "struct " + name + gp + wc + " { .. }")
                type_impls(p, v["impls"])
            elif kind == "enum":
                gp, wc = render_generics(v["generics"], c)
                vs = [render_variant(c.item(x), c) for x in v["variants"]]
                add(p, "enum", "enum " + name + gp + wc + " { " + ", ".join(vs) + " }")
                for x in v["variants"]:
                    add(p + "::" + c.item(x)["name"], "variant", render_variant(c.item(x), c))
                type_impls(p, v["impls"])
            elif kind == "function":
                add(p, "fn", render_fn(name, v, c))
            elif kind == "constant":
                add(p, "const", "const " + name + ": " + render_type(v["type"], c))
            elif kind == "trait":
                gp, wc = render_generics(v["generics"], c)
                b = render_bounds(v["bounds"], c)
                add(p, "trait", "trait " + name + gp + (": " + b if b else "") + wc)
                for mid in v["items"]:
                    m = c.item(mid)
                    if "function" in m["inner"]:
                        f = m["inner"]["function"]
                        req = "" if f["has_body"] else " (required)"
                        add(p + "::" + m["name"], "trait method", render_fn(m["name"], f, c) + req)
                for iid in v["implementations"]:
                    impl = c.item(iid)["inner"]["impl"]
                    key, sig = impl_key_and_sig(impl, c)
                    self_short = render_type(impl["for"], c, full=False)
                    add(p + " :: impl for " + self_short, "trait impl", sig)
            elif kind == "type_alias":
                add(p, "type alias", "type " + name + " = " + render_type(v["type"], c))
            else:
                add(p, kind, kind + " " + name)

    walk(c.doc["root"], c.name)

    # Derive macros, from the derive crate, under the names `simdnbt` re-exports.
    for it in derive.index.values():
        inner = it["inner"]
        if "proc_macro" in inner and it.get("visibility") == "public":
            pm = inner["proc_macro"]
            if pm["kind"] == "derive":
                helpers = ", ".join(pm.get("helpers", []))
                add(c.name + "::" + it["name"] + " (derive macro)", "derive macro",
                    "#[derive(" + it["name"] + ")], helper attributes: " + helpers)
    return items


def load_allowed(path):
    """(signature differences, behaviour differences): key -> docs/upstream.md row."""
    allowed, behaviour = OrderedDict(), OrderedDict()
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            key, _, rest = line.partition("\t")
            why, _, kind = rest.partition("\t")
            (behaviour if kind.strip() == "behaviour" else allowed)[key] = why.strip()
    return allowed, behaviour


def md(s):
    return "`" + s.replace("|", "\\|").replace("`", "'") + "`"


def main():
    up_path, ours_path, up_derive, ours_derive, allowed_path, out_path = sys.argv[1:7]
    up = collect(Crate(up_path), Crate(up_derive))
    ours = collect(Crate(ours_path), Crate(ours_derive))
    allowed, behaviour = load_allowed(allowed_path)

    rows, counts, by_kind = [], Counter(), {}
    for key, (kind, sig) in up.items():
        if key not in ours:
            status = "missing"
            mine = "—"
        elif ours[key][1] == sig:
            status = "same"
            mine = sig
        else:
            status = "different"
            mine = ours[key][1]
        counts[status] += 1
        by_kind.setdefault(kind, Counter())[status] += 1
        if status != "same":
            rows.append((key, kind, sig, mine, status, allowed.get(key)))
    extra = [k for k in ours if k not in up]
    undocumented = [r for r in rows if r[5] is None]
    stale = [k for k in allowed if k not in {r[0] for r in rows}]
    stale += [k for k in behaviour if k not in up]

    out = []
    out.append("# Upstream simdnbt 0.10 public API against this crate\n")
    out.append("Generated by `compare/api-diff.sh` from rustdoc JSON (nightly, "
               "`--output-format json`) of upstream simdnbt 0.10.0 (default features "
               "`derive` and `serde`) with simdnbt-derive 0.10.0, and of this workspace's "
               "simdnbt (default features) with its simdnbt-derive. Every public item "
               "reachable from the crate root is compared by path and signature, trait impls "
               "on public types included (auto traits and blanket impls left out). \"Same\" "
               "means the same signature, not the same behaviour.\n")
    total = sum(counts.values())
    out.append(f"Upstream public items: **{total}** — same: **{counts['same']}**, "
               f"different signature: **{counts['different']}**, missing here: "
               f"**{counts['missing']}**. Items only here: {len(extra)}.\n")
    out.append(f"Differences not covered by docs/upstream.md's table "
               f"(`compare/api-diff/allowed.txt`): **{len(undocumented)}**.\n")
    out.append("| kind | same | different | missing |\n|---|---:|---:|---:|")
    for kind in sorted(by_kind):
        k = by_kind[kind]
        out.append(f"| {kind} | {k['same']} | {k['different']} | {k['missing']} |")
    out.append("")
    out.append("## Items that differ or are missing\n")
    out.append("| item (upstream path) | kind | upstream 0.10 | here | status | docs/upstream.md row |")
    out.append("|---|---|---|---|---|---|")
    for key, kind, sig, mine, status, why in rows:
        note = why if why is not None else "**undocumented**"
        mine_cell = md(mine) if mine != "—" else "—"
        out.append(f"| {md(key)} | {kind} | {md(sig)} | {mine_cell} | **{status}** | {note} |")
    if behaviour:
        out.append("\n## Same signature, different behaviour (deliberate)\n")
        out.append("| item | docs/upstream.md row |\n|---|---|")
        for k, why in behaviour.items():
            out.append(f"| {md(k)} | {why} |")
    if stale:
        out.append("\n## Allowed differences that no longer differ (or no longer exist upstream)\n")
        for k in stale:
            out.append(f"- {md(k)}")
    out.append("")
    with open(out_path, "w") as f:
        f.write("\n".join(out))
    print(f"{total} upstream items: {counts['same']} same, {counts['different']} different, "
          f"{counts['missing']} missing; {len(undocumented)} undocumented; report: {out_path}")
    for r in undocumented:
        print(f"  undocumented {r[4]}: {r[0]}\n      upstream: {r[2]}\n      here:     {r[3]}")
    for k in stale:
        print(f"  stale entry in allowed.txt: {k}")
    return 1 if undocumented or stale else 0


if __name__ == "__main__":
    sys.exit(main())
