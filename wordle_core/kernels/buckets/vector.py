"""Vector code: the two kernels written as LLVM IR (numba has no vector types), each
beside a plain-numba twin with the same contract.

* :func:`equal64` - bit ``t`` set where two pattern rows agree at ``off + t``, ``t < 64``
  (:func:`equal64_ir`: one vector compare; :func:`equal64_plain`: a loop);
* :func:`count_set_block` - the number of patterns each of :data:`SET_BLOCK` guess
  columns shows over a candidate set, and whether one is all green
  (:func:`count_set_block_ir`: 256-bit pattern sets in vector lanes;
  :func:`count_set_block_plain`: the same sets as words in memory).

The kernels that use them (:mod:`.pairs`, :mod:`.counts`) call :func:`equal64` and
:func:`count_set_block`: the IR versions, or the twins when the environment variable
``WORDLE_LAB_PLAIN_KERNELS`` is ``1`` when this module is first imported (a machine whose
LLVM cannot lower the vector code, or a check of the twins). numba's on-disk cache does
not see which one a cached caller was compiled with, so with the twins nothing that can
reach them is cached (:data:`CACHE` is False; every start compiles them afresh).
``tests/test_vector_kernels.py`` compares each pair.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
from llvmlite import ir as llvm_ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

PLAIN_KERNELS = os.environ.get("WORDLE_LAB_PLAIN_KERNELS", "0") == "1"
CACHE = not PLAIN_KERNELS  # numba's cache=, for every kernel that can reach the two below


@njit(cache=CACHE, nogil=True)
def popcount64(x: np.uint64) -> int:
    """The number of bits set in ``x``."""
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return int((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@intrinsic
def equal64_ir(typingctx, a, b, off):
    """Bit ``t`` set when ``a[off + t] == b[off + t]``, for ``t < 64`` (``a``, ``b``:
    C-contiguous ``uint8`` or ``uint16`` arrays of one type with at least ``off + 64``
    entries): one vector compare of 64 entries whose lanes become the bits of a word, as
    LLVM lowers it for the machine (``vpcmpeqb`` into a mask register, or compares and
    ``pmovmskb``s)."""
    if not (all(isinstance(x, types.Array) and x.dtype in (types.uint8, types.uint16)
                and x.layout == "C" for x in (a, b)) and a.dtype == b.dtype):
        return None
    sig = types.uint64(a, b, types.intp)
    item = a.dtype.bitwidth

    def codegen(context, builder, signature, args):
        vec = llvm_ir.VectorType(llvm_ir.IntType(item), 64).as_pointer()
        ptrs = []
        for ty, arr in zip(signature.args[:2], args[:2], strict=True):
            data = context.make_array(ty)(context, builder, arr).data
            ptrs.append(builder.bitcast(builder.gep(data, [args[2]]), vec))
        eq = builder.icmp_unsigned("==", builder.load(ptrs[0], align=1),
                                   builder.load(ptrs[1], align=1))
        return builder.bitcast(eq, llvm_ir.IntType(64))

    return sig, codegen


SET_LANES = 8  # guesses per vector of 64-bit lanes (one 512-bit register, or two of 256)
SET_GROUPS = 4  # vectors per call of count_set_block: SET_BLOCK guesses, 16 accumulators
SET_BLOCK = SET_LANES * SET_GROUPS
SET_WORDS = 4  # a guess's pattern set: 256 bits (games of at most 256 patterns)


@intrinsic
def count_set_block_ir(typingctx, mt, cands, g0, green, nb, has_green):
    """:func:`count_columns` for the :data:`SET_BLOCK` guess columns ``g0 ..`` of ``mt``:
    ``nb[g0 + t]``, the number of patterns column ``g0 + t`` shows over ``cands``, and
    ``has_green[g0 + t]``, whether one is ``green``. ``mt``: a C-contiguous ``uint8`` (or
    ``uint16``) matrix (answers x guesses) of at least ``g0 + SET_BLOCK`` columns whose
    patterns are below 256; ``cands``: integer answer rows.

    Written as vector code because numba has no vector types. Each guess keeps the set
    of patterns it shows as 256 bits (four 64-bit words) in vector lanes: for each
    candidate, the block's patterns are loaded 8 at a time and widened into 64-bit
    lanes, and each lane sets its pattern's bit in the word the pattern falls in (a
    compare and a masked OR per word). The 16 accumulators stay in registers across
    the candidates, so a cell costs about two vector operations for eight guesses (a
    byte flag per pattern costs a store per cell and a sum per guess). The counts are
    then four vector popcounts per 8 guesses.
    """
    if not (isinstance(mt, types.Array) and mt.ndim == 2 and mt.dtype in (types.uint8, types.uint16)
            and mt.layout == "C" and isinstance(cands, types.Array) and cands.ndim == 1
            and isinstance(cands.dtype, types.Integer)
            and isinstance(nb, types.Array) and nb.dtype == types.int64 and nb.layout == "C"
            and isinstance(has_green, types.Array) and has_green.dtype == types.boolean
            and has_green.layout == "C"):
        return None
    sig = types.void(mt, cands, types.intp, types.intp, nb, has_green)
    signed = cands.dtype.signed
    item = mt.dtype.bitwidth

    def codegen(context, builder, signature, args):
        m_arr, c_arr, _, _, n_arr, g_arr = (
            context.make_array(ty)(context, builder, v) if isinstance(ty, types.Array) else None
            for ty, v in zip(signature.args, args, strict=True))
        g0, green = args[2], args[3]
        i64 = llvm_ir.IntType(64)
        lanes = llvm_ir.VectorType(i64, SET_LANES)
        item_lanes = llvm_ir.VectorType(llvm_ir.IntType(item), SET_LANES)
        byte_lanes = llvm_ir.VectorType(llvm_ir.IntType(8), SET_LANES)

        def splat(x):
            return llvm_ir.Constant(lanes, [x] * SET_LANES)

        row_stride = builder.extract_value(m_arr.strides, 0)
        cand_stride = builder.extract_value(c_arr.strides, 0)
        n = builder.extract_value(c_arr.shape, 0)
        cand_base = builder.ptrtoint(c_arr.data, i64)
        # the block's first pattern in row 0, in bytes (strides are in bytes)
        block = builder.add(builder.ptrtoint(m_arr.data, i64),
                            builder.mul(g0, llvm_ir.Constant(i64, item // 8)))
        acc = [[cgutils.alloca_once_value(builder, splat(0)) for _ in range(SET_WORDS)]
               for _ in range(SET_GROUPS)]
        with cgutils.for_range(builder, n) as loop:
            ptr = builder.inttoptr(builder.add(cand_base, builder.mul(loop.index, cand_stride)),
                                   c_arr.data.type)
            c = builder.load(ptr)
            if c.type.width < 64:
                c = builder.sext(c, i64) if signed else builder.zext(c, i64)
            row = builder.inttoptr(builder.add(block, builder.mul(c, row_stride)),
                                   item_lanes.as_pointer())
            for q in range(SET_GROUPS):
                p = builder.zext(builder.load(builder.gep(row, [llvm_ir.Constant(i64, q)]),
                                              align=1), lanes)
                bit = builder.shl(splat(1), builder.and_(p, splat(63)))
                word = builder.lshr(p, splat(6))
                for w in range(SET_WORDS):
                    a = builder.load(acc[q][w])
                    hit = builder.icmp_unsigned("==", word, splat(w))
                    builder.store(builder.select(hit, builder.or_(a, bit), a), acc[q][w])
        ctpop = cgutils.get_or_insert_function(builder.module, llvm_ir.FunctionType(lanes, [lanes]),
                                               f"llvm.ctpop.v{SET_LANES}i64")
        green_word = builder.lshr(green, llvm_ir.Constant(i64, 6))
        green_shift = builder.and_(green, llvm_ir.Constant(i64, 63))
        green_bit = llvm_ir.Constant(lanes, None)  # (green_shift in every lane)
        for t in range(SET_LANES):
            green_bit = builder.insert_element(green_bit, green_shift,
                                               llvm_ir.Constant(llvm_ir.IntType(32), t))
        nb_out = builder.bitcast(builder.gep(n_arr.data, [g0]), lanes.as_pointer())
        g_out = builder.bitcast(builder.gep(g_arr.data, [g0]), byte_lanes.as_pointer())
        for q in range(SET_GROUPS):
            words = [builder.load(acc[q][w]) for w in range(SET_WORDS)]
            count = builder.call(ctpop, [words[0]])
            for w in range(1, SET_WORDS):
                count = builder.add(count, builder.call(ctpop, [words[w]]))
            builder.store(count, builder.gep(nb_out, [llvm_ir.Constant(i64, q)]), align=8)
            held = words[SET_WORDS - 1]  # the word holding green (a pattern below 256)
            for w in range(SET_WORDS - 2, -1, -1):
                is_w = builder.icmp_unsigned("==", green_word, llvm_ir.Constant(i64, w))
                held = builder.select(is_w, words[w], held)
            shown = builder.and_(builder.lshr(held, green_bit), splat(1))
            builder.store(builder.trunc(shown, byte_lanes),
                          builder.gep(g_out, [llvm_ir.Constant(i64, q)]), align=1)
        return context.get_dummy_value()

    return sig, codegen


@njit(cache=CACHE, nogil=True)
def equal64_plain(a, b, off) -> np.uint64:
    """:func:`equal64_ir` as a plain loop (any arrays ``a``, ``b`` of at least ``off + 64``
    entries)."""
    x = np.uint64(0)
    for t in range(64):
        if a[off + t] == b[off + t]:
            x |= np.uint64(1) << np.uint64(t)
    return x


@njit(cache=CACHE, nogil=True)
def count_set_block_plain(mt, cands, g0, green, nb, has_green) -> None:
    """:func:`count_set_block_ir` as plain numba: each guess's 256-bit pattern set as four
    words of a small array, each candidate's row read in order across the block."""
    sets = np.zeros((SET_BLOCK, SET_WORDS), np.uint64)
    for j in range(cands.shape[0]):
        row = mt[cands[j]]
        for t in range(SET_BLOCK):
            p = row[g0 + t]
            sets[t, p >> 6] |= np.uint64(1) << np.uint64(p & 63)
    gw = green >> 6
    gb = np.uint64(1) << np.uint64(green & 63)
    for t in range(SET_BLOCK):
        c = 0
        for w in range(SET_WORDS):
            c += popcount64(sets[t, w])
        nb[g0 + t] = c
        has_green[g0 + t] = (sets[t, gw] & gb) != np.uint64(0)


# The ones the kernels call (see the module docstring).
# (Any: a numba intrinsic or dispatcher, called from compiled code only)
equal64: Any = equal64_plain if PLAIN_KERNELS else equal64_ir
count_set_block: Any = count_set_block_plain if PLAIN_KERNELS else count_set_block_ir
