"""``wordle-lab cache {info,clear}``: the pattern-matrix cache (where, how big, what is in it)."""

from __future__ import annotations

import argparse
import time

from wordle_core.cli.common import add_json_arg, print_json
from wordle_core.game.feedback import human_size


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("cache", help="the pattern-matrix cache: `cache info`, `cache clear`")
    csub = p.add_subparsers(dest="action", metavar="{info,clear}", parser_class=type(p))
    csub.required = True
    q = csub.add_parser("info", help="where the cache is, its size limit and every file in it")
    q.add_argument("--verify", action="store_true",
                   help="also recompute every matrix's CRC-32 and SHA-256 (reads every byte)")
    add_json_arg(q)
    q.set_defaults(func=cmd_cache_info)
    q = csub.add_parser("clear", help="remove every cached matrix (they are rebuilt when needed)")
    q.add_argument("--keep-legacy", action="store_true",
                   help="keep older-format patterns-*.npy files (used by older checkouts)")
    q.set_defaults(func=cmd_cache_clear)


def cmd_cache_info(args: argparse.Namespace) -> int:
    from wordle_core.game.matrix import cache_dir, cache_entries, cache_limit  # numpy: only when run

    entries = cache_entries(verify=args.verify)
    limit = cache_limit()
    total = sum(e.size for e in entries)
    bad = [e for e in entries if e.problem]
    if args.json:
        print_json({
            "directory": str(cache_dir()), "limit_bytes": limit, "total_bytes": total,
            "verified": bool(args.verify),
            "files": [{"name": e.path.name, "kind": e.kind, "bytes": e.size, "last_used": e.last_used,
                       "lexicon": e.lexicon, "shape": list(e.shape), "dtype": e.dtype,
                       "problem": e.problem} for e in entries],
        })
        return 1 if bad else 0
    print(f"cache: {cache_dir()}")
    print(f"limit: {human_size(limit) if limit else 'off (WORDLE_LAB_CACHE_LIMIT=0)'}  "
          f"(WORDLE_LAB_CACHE_LIMIT; least recently used matrices are removed beyond it)")
    print(f"used:  {human_size(total)} in {len(entries)} file(s)")
    for e in entries:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(e.last_used))
        what = (f"{e.lexicon} {e.dtype} {'x'.join(map(str, e.shape))}" if e.kind == "matrix" and not e.problem
                else {"legacy": "older format, not read by this version", "temp": "unfinished write"}
                .get(e.kind, ""))
        status = ("verified" if args.verify and e.kind == "matrix" else "")
        if e.problem:
            status = f"BAD: {e.problem.split(': ', 1)[-1]}"
        print(f"  {e.path.name:<42} {human_size(e.size):>10}  {when}  {what}  {status}".rstrip())
    return 1 if bad else 0


def cmd_cache_clear(args: argparse.Namespace) -> int:
    from wordle_core.game.matrix import cache_dir, clear_cache

    removed = clear_cache(legacy=not args.keep_legacy)
    print(f"removed {len(removed)} file(s), {human_size(sum(e.size for e in removed))} from {cache_dir()}")
    return 0
