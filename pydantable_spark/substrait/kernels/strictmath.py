"""Java's ``StrictMath``: the fdlibm 5.3 routines Spark's math functions call, bit for bit.

Spark computes ``exp``, ``log``, ``pow``, ``cbrt``, the inverse and hyperbolic
trigonometric functions... in Java's ``StrictMath`` (or in ``Math`` methods
that delegate to it on the JVM Spark runs on), which is fdlibm 5.3 ("Freely
Distributable Math Library", Sun Microsystems, 1993: "Permission to use, copy,
modify, and distribute this software is freely granted, provided that this
notice is preserved"). Python's ``math`` module calls the C library instead,
whose results differ in the last bit for a few percent of arguments (measured
against Java 17: ``exp`` 7%, ``cbrt`` 50%, ``atan2`` 17%...). This module is a
port of the fdlibm algorithms Spark needs, in Python floats (IEEE doubles, each
operation rounded once, as in Java), so the local engine gives Spark's doubles
exactly; it was checked against Java 17's ``StrictMath`` on millions of
arguments.

Not here: ``sin``, ``cos`` and ``tan``. Spark calls ``java.lang.Math`` for
them, which HotSpot replaces on x86-64 by Intel's own routines (neither
fdlibm's nor the C library's results); the local engine refuses them.

>>> exp(1.0), math.exp(1.0)  # fdlibm's is one unit in the last place above the C library's
(2.7182818284590455, 2.718281828459045)
"""

from __future__ import annotations

import math
import struct

__all__ = [
    "acos",
    "asin",
    "atan",
    "atan2",
    "cbrt",
    "cosh",
    "exp",
    "expm1",
    "hypot",
    "log",
    "log1p",
    "log10",
    "pow",
    "sinh",
    "sqrt",
    "tanh",
]

_h = float.fromhex


def _floats(hexes: str) -> tuple[float, ...]:
    """Doubles written in hexadecimal (fdlibm's constants, exactly), separated by spaces."""
    return tuple(float.fromhex(h) for h in hexes.split())


_DOUBLE = struct.Struct("<d")
_BITS = struct.Struct("<Q")
_INF = math.inf
_TWO54 = _h("0x1.0p54")
_HUGE = 1.0e300


def _signed32(word: int) -> int:
    word &= 0xFFFF_FFFF
    return word - (1 << 32) if word >> 31 else word


def _bits(x: float) -> int:
    return int(_BITS.unpack(_DOUBLE.pack(x))[0])


def _hi(x: float) -> int:
    """The high 32 bits of ``x``, as Java's signed ``int``."""
    return _signed32(_bits(x) >> 32)


def _lo(x: float) -> int:
    """The low 32 bits of ``x``, unsigned."""
    return _bits(x) & 0xFFFF_FFFF


def _words(high: int, low: int) -> float:
    return float(_DOUBLE.unpack(_BITS.pack(((high & 0xFFFF_FFFF) << 32) | (low & 0xFFFF_FFFF)))[0])


def _with_hi(x: float, high: int) -> float:
    return _words(high, _lo(x))


def _with_lo(x: float, low: int) -> float:
    return _words(_hi(x), low)


def sqrt(x: float) -> float:
    """``Math.sqrt`` (correctly rounded, as Python's): NaN for a negative number."""
    return math.nan if x < 0 else math.sqrt(x)


# --- inverse trigonometric functions (e_asin.c, e_acos.c, s_atan.c, e_atan2.c) ------------------------

_PIO2_HI = _h("0x1.921FB54442D18p0")
_PIO2_LO = _h("0x1.1A62633145C07p-54")
_PIO4_HI = _h("0x1.921FB54442D18p-1")
_PS = _floats(
    "0x1.5555555555555p-3 -0x1.4D61203EB6F7Dp-2 0x1.9C1550E884455p-3 -0x1.48228B5688F3Bp-5 "
    "0x1.9EFE07501B288p-11 0x1.23DE10DFDF709p-15"
)
_QS = _floats("-0x1.33A271C8A2D4Bp1 0x1.02AE59C598AC8p1 -0x1.6066C1B8D0159p-1 0x1.3B8C5B12E9282p-4")


def _asin_ratio(t: float) -> tuple[float, float]:
    """The rational approximation of (asin(x)-x)/x³: its numerator and denominator at ``t``."""
    s0, s1, s2, s3, s4, s5 = _PS
    q1, q2, q3, q4 = _QS
    p = t * (s0 + t * (s1 + t * (s2 + t * (s3 + t * (s4 + t * s5)))))
    q = 1.0 + t * (q1 + t * (q2 + t * (q3 + t * q4)))
    return p, q


def asin(x: float) -> float:
    """``StrictMath.asin``."""
    hx = _hi(x)
    ix = hx & 0x7FFF_FFFF
    if ix >= 0x3FF0_0000:  # |x| >= 1
        if ((ix - 0x3FF0_0000) | _lo(x)) == 0:
            return x * _PIO2_HI + x * _PIO2_LO
        return math.nan
    if ix < 0x3FE0_0000:  # |x| < 0.5
        if ix < 0x3E40_0000:  # |x| < 2**-27
            return x
        p, q = _asin_ratio(x * x)
        return x + x * (p / q)
    w = 1.0 - abs(x)
    t = w * 0.5
    p, q = _asin_ratio(t)
    s = math.sqrt(t)
    if ix >= 0x3FEF_3333:  # |x| > 0.975
        t = _PIO2_HI - (2.0 * (s + s * (p / q)) - _PIO2_LO)
    else:
        w = _with_lo(s, 0)
        c = (t - w * w) / (s + w)
        r = p / q
        p = 2.0 * s * r - (_PIO2_LO - 2.0 * c)
        q = _PIO4_HI - 2.0 * w
        t = _PIO4_HI - (p - q)
    return t if hx > 0 else -t


def acos(x: float) -> float:
    """``StrictMath.acos``."""
    hx = _hi(x)
    ix = hx & 0x7FFF_FFFF
    if ix >= 0x3FF0_0000:  # |x| >= 1
        if ((ix - 0x3FF0_0000) | _lo(x)) == 0:
            return 0.0 if hx > 0 else math.pi + 2.0 * _PIO2_LO
        return math.nan
    if ix < 0x3FE0_0000:  # |x| < 0.5
        if ix <= 0x3C60_0000:  # |x| < 2**-57
            return _PIO2_HI + _PIO2_LO
        p, q = _asin_ratio(x * x)
        return _PIO2_HI - (x - (_PIO2_LO - x * (p / q)))
    if hx < 0:  # x < -0.5
        z = (1.0 + x) * 0.5
        p, q = _asin_ratio(z)
        s = math.sqrt(z)
        w = (p / q) * s - _PIO2_LO
        return math.pi - 2.0 * (s + w)
    z = (1.0 - x) * 0.5  # x > 0.5
    s = math.sqrt(z)
    df = _with_lo(s, 0)
    c = (z - df * df) / (s + df)
    p, q = _asin_ratio(z)
    w = (p / q) * s + c
    return 2.0 * (df + w)


_ATAN_HI = _floats("0x1.DAC670561BB4Fp-2 0x1.921FB54442D18p-1 0x1.F730BD281F69Bp-1 0x1.921FB54442D18p0")
_ATAN_LO = _floats("0x1.A2B7F222F65E2p-56 0x1.1A62633145C07p-55 0x1.007887AF0CBBDp-56 0x1.1A62633145C07p-54")
_AT = _floats(
    "0x1.555555555550Dp-2 -0x1.999999998EBC4p-3 0x1.24924920083FFp-3 -0x1.C71C6FE231671p-4 "
    "0x1.745CDC54C206Ep-4 -0x1.3B0F2AF749A6Dp-4 0x1.10D66A0D03D51p-4 -0x1.DDE2D52DEFD9Ap-5 "
    "0x1.97B4B24760DEBp-5 -0x1.2B4442C6A6C2Fp-5 0x1.0AD3AE322DA11p-6"
)


def atan(x: float) -> float:
    """``StrictMath.atan``."""
    hx = _hi(x)
    ix = hx & 0x7FFF_FFFF
    if ix >= 0x4410_0000:  # |x| >= 2**66
        if math.isnan(x):
            return x + x
        return _ATAN_HI[3] + _ATAN_LO[3] if hx > 0 else -_ATAN_HI[3] - _ATAN_LO[3]
    if ix < 0x3FDC_0000:  # |x| < 0.4375
        if ix < 0x3E20_0000:  # |x| < 2**-29
            return x
        index = -1
    else:
        x = abs(x)
        if ix < 0x3FF3_0000:  # |x| < 1.1875
            if ix < 0x3FE6_0000:  # 7/16 <= |x| < 11/16
                index, x = 0, (2.0 * x - 1.0) / (2.0 + x)
            else:  # 11/16 <= |x| < 19/16
                index, x = 1, (x - 1.0) / (x + 1.0)
        elif ix < 0x4003_8000:  # |x| < 2.4375
            index, x = 2, (x - 1.5) / (1.0 + 1.5 * x)
        else:  # 2.4375 <= |x| < 2**66
            index, x = 3, -1.0 / x
    z = x * x
    w = z * z
    a = _AT
    s1 = z * (a[0] + w * (a[2] + w * (a[4] + w * (a[6] + w * (a[8] + w * a[10])))))
    s2 = w * (a[1] + w * (a[3] + w * (a[5] + w * (a[7] + w * a[9]))))
    if index < 0:
        return x - x * (s1 + s2)
    z = _ATAN_HI[index] - ((x * (s1 + s2) - _ATAN_LO[index]) - x)
    return -z if hx < 0 else z


_TINY = 1.0e-300
_PI_O_4 = _h("0x1.921FB54442D18p-1")
_PI_LO = _h("0x1.1A62633145C07p-53")


def atan2(y: float, x: float) -> float:
    """``StrictMath.atan2`` (the angle of the point (``x``, ``y``))."""
    if math.isnan(x) or math.isnan(y):
        return x + y
    hx, lx, hy, ly = _hi(x), _lo(x), _hi(y), _lo(y)
    ix, iy = hx & 0x7FFF_FFFF, hy & 0x7FFF_FFFF
    if ((hx - 0x3FF0_0000) | lx) == 0:  # x = 1.0
        return atan(y)
    m = ((hy >> 31) & 1) | ((hx >> 30) & 2)  # 2*sign(x) + sign(y)
    if (iy | ly) == 0:  # y = 0
        return (y, y, math.pi + _TINY, -math.pi - _TINY)[m]
    if (ix | lx) == 0:  # x = 0
        return -_PIO2_HI - _TINY if hy < 0 else _PIO2_HI + _TINY
    if ix == 0x7FF0_0000:  # x is infinite
        if iy == 0x7FF0_0000:
            return (_PI_O_4 + _TINY, -_PI_O_4 - _TINY, 3.0 * _PI_O_4 + _TINY, -3.0 * _PI_O_4 - _TINY)[m]
        return (0.0, -0.0, math.pi + _TINY, -math.pi - _TINY)[m]
    if iy == 0x7FF0_0000:  # y is infinite
        return -_PIO2_HI - _TINY if hy < 0 else _PIO2_HI + _TINY
    k = (iy - ix) >> 20
    if k > 60:  # |y/x| > 2**60
        z = _PIO2_HI + 0.5 * _PI_LO
    elif hx < 0 and k < -60:  # |y|/x < -2**60
        z = 0.0
    else:
        z = atan(abs(y / x))
    if m == 0:
        return z
    if m == 1:
        return -z
    if m == 2:
        return math.pi - (z - _PI_LO)
    return (z - _PI_LO) - math.pi


# --- exponentials and logarithms (e_exp.c, s_expm1.c, e_log.c, e_log10.c, s_log1p.c) -------------------

_LN2_HI = _h("0x1.62E42FEEp-1")
_LN2_LO = _h("0x1.A39EF35793C76p-33")
_INV_LN2 = _h("0x1.71547652B82FEp0")
_O_THRESHOLD = _h("0x1.62E42FEFA39EFp9")
_U_THRESHOLD = -_h("0x1.74910D52D3051p9")
_TWOM1000 = _h("0x1.0p-1000")
_P = _floats(
    "0x1.555555555553Ep-3 -0x1.6C16C16BEBD93p-9 0x1.1566AAF25DE2Cp-14 -0x1.BBD41C5D26BF1p-20 0x1.6376972BEA4D0p-25"
)


def exp(x: float) -> float:
    """``StrictMath.exp``."""
    hx = _hi(x)
    xsb = (hx >> 31) & 1
    hx &= 0x7FFF_FFFF
    if hx >= 0x4086_2E42:  # |x| >= 709.78...
        if hx >= 0x7FF0_0000:
            if math.isnan(x):
                return x + x
            return x if xsb == 0 else 0.0
        if x > _O_THRESHOLD:
            return _INF
        if x < _U_THRESHOLD:
            return 0.0
    hi = lo = 0.0
    k = 0
    if hx > 0x3FD6_2E42:  # |x| > 0.5 ln2
        if hx < 0x3FF0_A2B2:  # and |x| < 1.5 ln2
            hi = x - _LN2_HI * (1 - 2 * xsb)
            lo = _LN2_LO if xsb == 0 else -_LN2_LO
            k = 1 - xsb - xsb
        else:
            k = int(_INV_LN2 * x + 0.5 * (1 - 2 * xsb))
            t = float(k)
            hi = x - t * _LN2_HI
            lo = t * _LN2_LO
        x = hi - lo
    elif hx < 0x3E30_0000:  # |x| < 2**-28
        return 1.0 + x
    p1, p2, p3, p4, p5 = _P
    t = x * x
    c = x - t * (p1 + t * (p2 + t * (p3 + t * (p4 + t * p5))))
    if k == 0:
        return 1.0 - ((x * c) / (c - 2.0) - x)
    y = 1.0 - ((lo - (x * c) / (2.0 - c)) - hi)
    if k >= -1021:
        return _with_hi(y, _hi(y) + (k << 20))
    return _with_hi(y, _hi(y) + ((k + 1000) << 20)) * _TWOM1000


_Q = _floats(
    "-0x1.11111111110F4p-5 0x1.A01A019FE5585p-10 -0x1.4CE199EAADBB7p-14 0x1.0CFCA86E65239p-18 -0x1.AFDB76E09C32Dp-23"
)


def expm1(x: float) -> float:
    """``StrictMath.expm1`` (``exp(x) - 1`` exactly near 0)."""
    hx = _hi(x)
    negative = hx < 0
    hx &= 0x7FFF_FFFF
    if hx >= 0x4043_687A:  # |x| >= 56*ln2
        if hx >= 0x4086_2E42:  # |x| >= 709.78...
            if hx >= 0x7FF0_0000:
                if math.isnan(x):
                    return x + x
                return -1.0 if negative else x
            if x > _O_THRESHOLD:
                return _INF
        if negative:  # x < -56*ln2
            return -1.0
    c = 0.0
    if hx > 0x3FD6_2E42:  # |x| > 0.5 ln2
        if hx < 0x3FF0_A2B2:  # and |x| < 1.5 ln2
            hi, lo, k = (x + _LN2_HI, -_LN2_LO, -1) if negative else (x - _LN2_HI, _LN2_LO, 1)
        else:
            k = int(_INV_LN2 * x + (-0.5 if negative else 0.5))
            t = float(k)
            hi = x - t * _LN2_HI
            lo = t * _LN2_LO
        x = hi - lo
        c = (hi - x) - lo
    elif hx < 0x3C90_0000:  # |x| < 2**-54
        return x
    else:
        k = 0
    q1, q2, q3, q4, q5 = _Q
    hfx = 0.5 * x
    hxs = x * hfx
    r1 = 1.0 + hxs * (q1 + hxs * (q2 + hxs * (q3 + hxs * (q4 + hxs * q5))))
    t = 3.0 - r1 * hfx
    e = hxs * ((r1 - t) / (6.0 - x * t))
    if k == 0:
        return x - (x * e - hxs)
    e = x * (e - c) - c
    e -= hxs
    if k == -1:
        return 0.5 * (x - e) - 0.5
    if k == 1:
        return -2.0 * (e - (x + 0.5)) if x < -0.25 else 1.0 + 2.0 * (x - e)
    if k <= -2 or k > 56:  # exp(x) - 1 suffices
        y = 1.0 - (e - x)
        return _with_hi(y, _hi(y) + (k << 20)) - 1.0
    if k < 20:
        t = _words(0x3FF0_0000 - (0x20_0000 >> k), 0)  # 1 - 2**-k
        y = t - (e - x)
        return _with_hi(y, _hi(y) + (k << 20))
    t = _words((0x3FF - k) << 20, 0)  # 2**-k
    y = x - (e + t)
    y += 1.0
    return _with_hi(y, _hi(y) + (k << 20))


_LG = _floats(
    "0x1.5555555555593p-1 0x1.999999997FA04p-2 0x1.2492494229359p-2 0x1.C71C51D8E78AFp-3 "
    "0x1.7466496CB03DEp-3 0x1.39A09D078C69Fp-3 0x1.2F112DF3E5244p-3"
)


def _split(x: float) -> tuple[float, int, int] | float:
    """The first step of fdlibm's log and log10: ``x`` (a subnormal scaled up), its high word and exponent.

    Or the result itself: -inf for ±0, NaN for a negative number, ``x`` for infinity and NaN.
    """
    hx, lx = _hi(x), _lo(x)
    k = 0
    if hx < 0x0010_0000:  # x < 2**-1022
        if ((hx & 0x7FFF_FFFF) | lx) == 0:
            return -_INF
        if hx < 0:
            return math.nan
        k -= 54
        x *= _TWO54  # subnormal: scale up
        hx = _hi(x)
    if hx >= 0x7FF0_0000:
        return x + x
    return x, hx, k + (hx >> 20) - 1023


def log(x: float) -> float:
    """``StrictMath.log``: -inf for ±0, NaN below 0."""
    split = _split(x)
    if isinstance(split, float):
        return split
    x, hx, k = split
    hx &= 0x000F_FFFF
    i = (hx + 0x9_5F64) & 0x10_0000
    x = _with_hi(x, hx | (i ^ 0x3FF0_0000))  # normalize x or x/2
    k += i >> 20
    f = x - 1.0
    dk = float(k)
    if (0x000F_FFFF & (2 + hx)) < 3:  # |f| < 2**-20
        if f == 0.0:
            return 0.0 if k == 0 else dk * _LN2_HI + dk * _LN2_LO
        r = f * f * (0.5 - 0.33333333333333333 * f)
        return f - r if k == 0 else dk * _LN2_HI - ((r - dk * _LN2_LO) - f)
    s = f / (2.0 + f)
    z = s * s
    i = hx - 0x6_147A
    w = z * z
    j = 0x6B851 - hx
    g1, g2, g3, g4, g5, g6, g7 = _LG
    t1 = w * (g2 + w * (g4 + w * g6))
    t2 = z * (g1 + w * (g3 + w * (g5 + w * g7)))
    i |= j
    r = t2 + t1
    if i > 0:
        hfsq = 0.5 * f * f
        if k == 0:
            return f - (hfsq - s * (hfsq + r))
        return dk * _LN2_HI - ((hfsq - (s * (hfsq + r) + dk * _LN2_LO)) - f)
    if k == 0:
        return f - s * (f - r)
    return dk * _LN2_HI - ((s * (f - r) - dk * _LN2_LO) - f)


_IVLN10 = _h("0x1.BCB7B1526E50Ep-2")
_LOG10_2HI = _h("0x1.34413509F6p-2")
_LOG10_2LO = _h("0x1.9FEF311F12B36p-42")


def log10(x: float) -> float:
    """``StrictMath.log10``."""
    split = _split(x)
    if isinstance(split, float):
        return split
    x, hx, k = split
    i = 1 if k < 0 else 0
    hx = (hx & 0x000F_FFFF) | ((0x3FF - i) << 20)
    y = float(k + i)
    x = _with_hi(x, hx)
    z = y * _LOG10_2LO + _IVLN10 * log(x)
    return z + y * _LOG10_2HI


def log1p(x: float) -> float:
    """``StrictMath.log1p`` (``log(1 + x)`` exactly near 0)."""
    hx = _hi(x)
    ax = hx & 0x7FFF_FFFF
    k = 1
    f = c = 0.0
    hu = 0
    if hx < 0x3FDA_827A:  # x < 0.41422
        if ax >= 0x3FF0_0000:  # x <= -1.0
            return -_INF if x == -1.0 else math.nan
        if ax < 0x3E20_0000:  # |x| < 2**-29
            return x if ax < 0x3C90_0000 else x - x * x * 0.5
        if hx > 0 or hx <= _signed32(0xBFD2_BEC3):  # -0.2929 < x < 0.41422
            k, f, hu = 0, x, 1
    if hx >= 0x7FF0_0000:
        return x + x
    if k != 0:
        if hx < 0x4340_0000:
            u = 1.0 + x
            hu = _hi(u)
            k = (hu >> 20) - 1023
            c = 1.0 - (u - x) if k > 0 else x - (u - 1.0)  # correction term
            c /= u
        else:
            u = x
            hu = _hi(u)
            k = (hu >> 20) - 1023
            c = 0.0
        hu &= 0x000F_FFFF
        if hu < 0x6_A09E:
            u = _with_hi(u, hu | 0x3FF0_0000)  # normalize u
        else:
            k += 1
            u = _with_hi(u, hu | 0x3FE0_0000)  # normalize u/2
            hu = (0x0010_0000 - hu) >> 2
        f = u - 1.0
    hfsq = 0.5 * f * f
    if hu == 0:  # |f| < 2**-20
        if f == 0.0:
            if k == 0:
                return 0.0
            c += k * _LN2_LO
            return k * _LN2_HI + c
        r = hfsq * (1.0 - 0.66666666666666666 * f)
        return f - r if k == 0 else k * _LN2_HI - ((r - (k * _LN2_LO + c)) - f)
    s = f / (2.0 + f)
    z = s * s
    g1, g2, g3, g4, g5, g6, g7 = _LG
    r = z * (g1 + z * (g2 + z * (g3 + z * (g4 + z * (g5 + z * (g6 + z * g7))))))
    if k == 0:
        return f - (hfsq - s * (hfsq + r))
    return k * _LN2_HI - ((hfsq - (s * (hfsq + r) + (k * _LN2_LO + c))) - f)


# --- hyperbolic functions (e_sinh.c, e_cosh.c, s_tanh.c) -------------------------------------------------


def _beyond_overflow_threshold(ix: int, x: float) -> bool:
    """Whether |x| (high word ``ix``) exceeds the overflow threshold of sinh and cosh (~710.4758)."""
    return not (ix < 0x4086_33CE or (ix == 0x4086_33CE and _lo(x) <= 0x8FB9_F87D))


def sinh(x: float) -> float:
    """``StrictMath.sinh``."""
    jx = _hi(x)
    ix = jx & 0x7FFF_FFFF
    if ix >= 0x7FF0_0000:
        return x + x
    h = -0.5 if jx < 0 else 0.5
    if ix < 0x4036_0000:  # |x| < 22
        if ix < 0x3E30_0000:  # |x| < 2**-28
            return x
        t = expm1(abs(x))
        if ix < 0x3FF0_0000:
            return h * (2.0 * t - t * t / (t + 1.0))
        return h * (t + t / (t + 1.0))
    if ix < 0x4086_2E42:  # |x| in [22, log(maxdouble)]
        return h * exp(abs(x))
    if not _beyond_overflow_threshold(ix, x):
        w = exp(0.5 * abs(x))
        t = h * w
        return t * w
    return x * 1.0e307


def cosh(x: float) -> float:
    """``StrictMath.cosh``."""
    ix = _hi(x) & 0x7FFF_FFFF
    if ix >= 0x7FF0_0000:
        return x * x
    if ix < 0x3FD6_2E43:  # |x| in [0, 0.5*ln2]
        t = expm1(abs(x))
        w = 1.0 + t
        if ix < 0x3C80_0000:
            return w
        return 1.0 + (t * t) / (w + w)
    if ix < 0x4036_0000:  # |x| in [0.5*ln2, 22]
        t = exp(abs(x))
        return 0.5 * t + 0.5 / t
    if ix < 0x4086_2E42:  # |x| in [22, log(maxdouble)]
        return 0.5 * exp(abs(x))
    if not _beyond_overflow_threshold(ix, x):
        w = exp(0.5 * abs(x))
        t = 0.5 * w
        return t * w
    return _INF


def tanh(x: float) -> float:
    """``StrictMath.tanh``."""
    jx = _hi(x)
    ix = jx & 0x7FFF_FFFF
    if ix >= 0x7FF0_0000:
        return 1.0 / x + 1.0 if jx >= 0 else 1.0 / x - 1.0
    if ix < 0x4036_0000:  # |x| < 22
        if ix < 0x3C80_0000:  # |x| < 2**-55
            return x * (1.0 + x)
        if ix >= 0x3FF0_0000:  # |x| >= 1
            t = expm1(2.0 * abs(x))
            z = 1.0 - 2.0 / (t + 2.0)
        else:
            t = expm1(-2.0 * abs(x))
            z = -t / (t + 2.0)
    else:
        z = 1.0 - _TINY
    return z if jx >= 0 else -z


# --- cube root, hypotenuse, power (s_cbrt.c, e_hypot.c, e_pow.c) -------------------------------------------

_CB_B1 = 715094163
_CB_B2 = 696219795
_CB_C = _h("0x1.15F15F15F15F1p-1")
_CB_D = -_h("0x1.691DE2532C834p-1")
_CB_E = _h("0x1.6A0EA0EA0EA0Fp0")
_CB_F = _h("0x1.9B6DB6DB6DB6Ep0")
_CB_G = _h("0x1.6DB6DB6DB6DB7p-2")


def cbrt(x: float) -> float:
    """``StrictMath.cbrt``."""
    if x == 0.0 or not math.isfinite(x):
        return x
    sign = -1.0 if x < 0.0 else 1.0
    x = abs(x)
    if x < _h("0x1.0p-1022"):  # subnormal
        t = _h("0x1.0p54") * x
        t = _with_hi(t, _hi(t) // 3 + _CB_B2)
    else:
        t = _words(_hi(x) // 3 + _CB_B1, 0)
    r = t * t / x
    s = _CB_C + r * t
    t *= _CB_G + _CB_F / (s + _CB_E + _CB_D / s)
    t = _with_lo(t, 0)
    t = _with_hi(t, _hi(t) + 1)
    s = t * t
    r = x / s
    w = t + t
    r = (r - t) / (w + r)
    t = t + t * r
    return sign * t


def hypot(x: float, y: float) -> float:
    """``StrictMath.hypot``."""
    a, b = abs(x), abs(y)
    if not math.isfinite(a) or not math.isfinite(b):
        return _INF if _INF in (a, b) else a + b
    if b > a:
        a, b = b, a
    ha, hb = _hi(a), _hi(b)
    if ha - hb > 0x3C0_0000:  # a/b > 2**60
        return a + b
    k = 0
    if a > _h("0x1.00000FFFFFFFFp500"):  # scale a and b by 2**-600
        ha -= 0x2580_0000
        hb -= 0x2580_0000
        a *= _h("0x1.0p-600")
        b *= _h("0x1.0p-600")
        k += 600
    if b < _h("0x1.0p-500"):
        if b < _h("0x1.0p-1022"):  # subnormal b or 0
            if b == 0.0:
                return a
            b *= _h("0x1.0p1022")
            a *= _h("0x1.0p1022")
            k -= 1022
        else:  # scale a and b by 2**600
            ha += 0x2580_0000
            hb += 0x2580_0000
            a *= _h("0x1.0p600")
            b *= _h("0x1.0p600")
            k -= 600
    w = a - b
    if w > b:
        t1 = _words(ha, 0)
        t2 = a - t1
        w = math.sqrt(t1 * t1 - (b * (-b) - t2 * (a + t1)))
    else:
        a = a + a
        y1 = _words(hb, 0)
        y2 = b - y1
        t1 = _words(ha + 0x0010_0000, 0)
        t2 = a - t1
        w = math.sqrt(t1 * y1 - (w * (-w) - (t1 * y2 + t2 * b)))
    return math.ldexp(1.0, k) * w if k != 0 else w


_INV_LN2_H = _h("0x1.715476p0")
_INV_LN2_L = _h("0x1.4AE0BF85DDF44p-26")
_CP = _h("0x1.EC709DC3A03FDp-1")
_CP_H = _h("0x1.EC709Ep-1")
_CP_L = -_h("0x1.E2FE0145B01F5p-28")
_DP_H1 = _h("0x1.2B8034p-1")
_DP_L1 = _h("0x1.CFDEB43CFD006p-27")
_L = _floats(
    "0x1.3333333333303p-1 0x1.B6DB6DB6FABFFp-2 0x1.55555518F264Dp-2 0x1.17460A91D4101p-2 "
    "0x1.D864A93C9DB65p-3 0x1.A7E284A454EEFp-3"
)
_LG2 = _h("0x1.62E42FEFA39EFp-1")
_LG2_H = _h("0x1.62E43p-1")
_LG2_L = -_h("0x1.05C610CA86C39p-29")
_OVT = 8.0085662595372944372e-17


def _pow_special(x: float, y: float) -> float | None:
    """``pow``'s results for a zero, NaN, ±1, ±2, ±0.5 or infinite ``y`` (None for the others)."""
    if y == 0.0:
        return 1.0
    if math.isnan(x) or math.isnan(y):
        return x + y
    if y == 2.0:
        return x * x
    if y == 0.5 and x >= -1.7976931348623157e308:  # x == -inf: below
        return sqrt(x + 0.0)
    if abs(y) == 1.0:
        if y == 1.0:
            return x
        return 1.0 / x if x != 0.0 else math.copysign(_INF, x)
    if math.isinf(y):
        if abs(x) == 1.0:
            return math.nan
        if abs(x) > 1.0:
            return y if y >= 0 else 0.0
        return -y if y < 0 else 0.0
    return None


def _odd_even(hx: int, y_abs: float) -> int:
    """For x < 0 (high word ``hx``): 0 if ``y`` is not an integer, 1 if it is an odd one, 2 if even."""
    if hx >= 0:
        return 0
    if y_abs >= _h("0x1.0p53"):
        return 2
    if y_abs >= 1.0 and float(int(y_abs)) == y_abs:
        return 2 - (int(y_abs) & 1)
    return 0


def _log2_near_one(x_abs: float) -> tuple[float, float]:
    """log2(|x|) in two pieces for |x| within 2**-20 of 1 (pow with a huge exponent)."""
    t = x_abs - 1.0
    w = (t * t) * (0.5 - t * (0.3333333333333333333333 - t * 0.25))
    u = _INV_LN2_H * t
    v = t * _INV_LN2_L - w * _INV_LN2
    t1 = _with_lo(u + v, 0)
    return t1, v - (t1 - u)


def _log2_pieces(x_abs: float, ix: int) -> tuple[float, float]:
    """log2(|x|) = t1 + t2 with t1 having 29 trailing zero bits (``ix``: |x|'s high word)."""
    n = 0
    if ix < 0x0010_0000:  # subnormal
        x_abs *= _h("0x1.0p53")
        n -= 53
        ix = _hi(x_abs)
    n += (ix >> 20) - 0x3FF
    j = ix & 0x000F_FFFF
    ix = j | 0x3FF0_0000
    if j <= 0x3988E:  # |x| < sqrt(3/2)
        k = 0
    elif j < 0xBB67A:  # |x| < sqrt(3)
        k = 1
    else:
        k = 0
        n += 1
        ix -= 0x0010_0000
    x_abs = _with_hi(x_abs, ix)
    bp = 1.0 + 0.5 * k
    u = x_abs - bp
    v = 1.0 / (x_abs + bp)
    ss = u * v
    s_h = _with_lo(ss, 0)
    t_h = _words(((ix >> 1) | 0x2000_0000) + 0x0008_0000 + (k << 18), 0)
    t_l = x_abs - (t_h - bp)
    s_l = v * ((u - s_h * t_h) - s_h * t_l)
    s2 = ss * ss
    l1, l2, l3, l4, l5, l6 = _L
    r = s2 * s2 * (l1 + s2 * (l2 + s2 * (l3 + s2 * (l4 + s2 * (l5 + s2 * l6)))))
    r += s_l * (s_h + ss)
    s2 = s_h * s_h
    t_h = _with_lo(3.0 + s2 + r, 0)
    t_l = r - ((t_h - 3.0) - s2)
    u = s_h * t_h
    v = s_l * t_h + t_l * ss
    p_h = _with_lo(u + v, 0)
    p_l = v - (p_h - u)
    z_h = _CP_H * p_h
    z_l = _CP_L * p_h + p_l * _CP + _DP_L1 * k
    t = float(n)
    t1 = _with_lo(((z_h + z_l) + _DP_H1 * k) + t, 0)
    return t1, z_l - (((t1 - t) - _DP_H1 * k) - z_h)


def pow(x: float, y: float) -> float:
    """``StrictMath.pow`` (Spark's ``pow``/``power``)."""
    special = _pow_special(x, y)
    if special is not None:
        return special
    y_abs, x_abs = abs(y), abs(x)
    hx = _hi(x)
    ix = hx & 0x7FFF_FFFF
    y_is_int = _odd_even(hx, y_abs)
    if x_abs in (0.0, _INF, 1.0):
        z = x_abs
        if y < 0.0:
            z = 1.0 / z if z != 0.0 else _INF
        if hx < 0:
            if ((ix - 0x3FF0_0000) | y_is_int) == 0:
                z = math.nan  # (-1)**non-int
            elif y_is_int == 1:
                z = -1.0 * z
        return z
    n = (hx >> 31) + 1
    if (n | y_is_int) == 0:  # (x < 0)**(non-int)
        return math.nan
    s = -1.0 if (n | (y_is_int - 1)) == 0 else 1.0
    if y_abs > _h("0x1.00000FFFFFFFFp31"):  # |y| > ~2**31
        if x_abs < _h("0x1.FFFFF00000000p-1"):
            return s * _INF if y < 0.0 else s * 0.0
        if x_abs > _h("0x1.00000FFFFFFFFp0"):
            return s * _INF if y > 0.0 else s * 0.0
        t1, t2 = _log2_near_one(x_abs)
    else:
        t1, t2 = _log2_pieces(x_abs, ix)
    y1 = _with_lo(y, 0)
    p_l = (y - y1) * t1 + y * t2
    p_h = y1 * t1
    z = p_l + p_h
    j, i = _hi(z), _lo(z)
    if j >= 0x4090_0000:  # z >= 1024
        if ((j - 0x4090_0000) | i) != 0 or p_l + _OVT > z - p_h:
            return s * _INF
    elif (j & 0x7FFF_FFFF) >= 0x4090_CC00 and (((j - _signed32(0xC090_CC00)) | i) != 0 or p_l <= z - p_h):
        return s * 0.0  # z <= -1075
    i = j & 0x7FFF_FFFF
    k = (i >> 20) - 0x3FF
    n = 0
    if i > 0x3FE0_0000:  # |z| > 0.5: n = [z + 0.5]
        n = j + (0x0010_0000 >> (k + 1))
        k = ((n & 0x7FFF_FFFF) >> 20) - 0x3FF
        t = _words(n & ~(0x000F_FFFF >> k), 0)
        n = ((n & 0x000F_FFFF) | 0x0010_0000) >> (20 - k)
        if j < 0:
            n = -n
        p_h -= t
    t = _with_lo(p_l + p_h, 0)
    u = t * _LG2_H
    v = (p_l - (t - p_h)) * _LG2 + t * _LG2_L
    z = u + v
    w = v - (z - u)
    t = z * z
    p1, p2, p3, p4, p5 = _P
    t1 = z - t * (p1 + t * (p2 + t * (p3 + t * (p4 + t * p5))))
    r = (z * t1) / (t1 - 2.0) - (w + z * w)
    z = 1.0 - (r - z)
    j = _hi(z) + (n << 20)
    # a subnormal result: Java's Math.scalb rounds once, as ldexp does
    z = math.ldexp(z, n) if (j >> 20) <= 0 else _with_hi(z, _hi(z) + (n << 20))
    return s * z
