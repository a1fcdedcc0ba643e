/* Multi-word bitboards of NW 64-bit words; included once per word count by core.c.
 *
 * Every name is suffixed with the word count (F(name)), so that each board size uses the
 * smallest type that holds it: 2 words for Egotzi, 3 for the square games and small
 * Linage and Partitions boards, up to 6 for Linage 19 and Partitions 10 (380 bits).
 * Bits shifted past the top word are dropped; the rules only ever keep the bits of the
 * board (they mask with it), so this gives the same results as Python's unbounded ints.
 */

typedef struct {
    uint64_t w[NW];
} BB;

static inline BB F(bb_zero)(void)
{
    BB r;
    memset(&r, 0, sizeof r);
    return r;
}

static inline BB F(bb_and)(BB a, BB b)
{
    for (int i = 0; i < NW; i++) a.w[i] &= b.w[i];
    return a;
}

static inline BB F(bb_or)(BB a, BB b)
{
    for (int i = 0; i < NW; i++) a.w[i] |= b.w[i];
    return a;
}

static inline BB F(bb_xor)(BB a, BB b)
{
    for (int i = 0; i < NW; i++) a.w[i] ^= b.w[i];
    return a;
}

/* a & ~b */
static inline BB F(bb_andnot)(BB a, BB b)
{
    for (int i = 0; i < NW; i++) a.w[i] &= ~b.w[i];
    return a;
}

static inline int F(bb_any)(BB a)
{
    uint64_t x = 0;
    for (int i = 0; i < NW; i++) x |= a.w[i];
    return x != 0;
}

static inline int F(bb_eq)(BB a, BB b)
{
    uint64_t x = 0;
    for (int i = 0; i < NW; i++) x |= a.w[i] ^ b.w[i];
    return x == 0;
}

static inline int F(bb_count)(BB a)
{
    int c = 0;
    for (int i = 0; i < NW; i++) c += popcount64(a.w[i]);
    return c;
}

static inline int F(bb_test)(BB a, int i)
{
    return (int)((a.w[i >> 6] >> (i & 63)) & 1u);
}

static inline void F(bb_set)(BB *a, int i)
{
    a->w[i >> 6] |= (uint64_t)1 << (i & 63);
}

static inline void F(bb_clear)(BB *a, int i)
{
    a->w[i >> 6] &= ~((uint64_t)1 << (i & 63));
}

static inline BB F(bb_bit)(int i)
{
    BB r = F(bb_zero)();
    F(bb_set)(&r, i);
    return r;
}

/* The index of the lowest set bit, -1 if none. */
static inline int F(bb_low)(BB a)
{
    for (int i = 0; i < NW; i++)
        if (a.w[i]) return i * 64 + ctz64(a.w[i]);
    return -1;
}

/* The index of the highest set bit, -1 if none (Python's bit_length() - 1). */
static inline int F(bb_high)(BB a)
{
    for (int i = NW - 1; i >= 0; i--)
        if (a.w[i]) return i * 64 + 63 - clz64(a.w[i]);
    return -1;
}

/* a & -a */
static inline BB F(bb_lowbit)(BB a)
{
    BB r = F(bb_zero)();
    for (int i = 0; i < NW; i++)
        if (a.w[i]) {
            r.w[i] = a.w[i] & (~a.w[i] + 1);
            break;
        }
    return r;
}

/* a << k */
static inline BB F(bb_shl)(BB a, int k)
{
    BB r;
    if (k == 0) return a;
    if (k < 64) { /* the common case: one pass, no branches */
        for (int i = NW - 1; i > 0; i--) r.w[i] = (a.w[i] << k) | (a.w[i - 1] >> (64 - k));
        r.w[0] = a.w[0] << k;
        return r;
    }
    int q = k >> 6, s = k & 63;
    for (int i = NW - 1; i >= 0; i--) r.w[i] = i - q >= 0 ? a.w[i - q] : 0;
    return s ? F(bb_shl)(r, s) : r;
}

/* a >> k */
static inline BB F(bb_shr)(BB a, int k)
{
    BB r;
    if (k == 0) return a;
    if (k < 64) {
        for (int i = 0; i < NW - 1; i++) r.w[i] = (a.w[i] >> k) | (a.w[i + 1] << (64 - k));
        r.w[NW - 1] = a.w[NW - 1] >> k;
        return r;
    }
    int q = k >> 6, s = k & 63;
    for (int i = 0; i < NW; i++) r.w[i] = i + q < NW ? a.w[i + q] : 0;
    return s ? F(bb_shr)(r, s) : r;
}

/* a << k for k of either sign. */
static inline BB F(bb_shift)(BB a, int k)
{
    return k >= 0 ? F(bb_shl)(a, k) : F(bb_shr)(a, -k);
}

/* The index of the k-th set bit (from 0, lowest first). */
static inline int F(bb_nth)(BB a, int k)
{
    for (int i = 0; i < NW; i++) {
        int c = popcount64(a.w[i]);
        if (k < c) {
            uint64_t x = a.w[i];
            while (k--) x &= x - 1;
            return i * 64 + ctz64(x);
        }
        k -= c;
    }
    return -1;
}

/* The bits from lo to hi inclusive. */
static inline BB F(bb_range)(int lo, int hi)
{
    BB r = F(bb_zero)();
    for (int i = lo; i <= hi; i++)
        if (i >= 0 && i < NW * 64) F(bb_set)(&r, i);
    return r;
}

/* Iterate over the set bits of a bitboard: for (int b = ...) style helper. */
#define FOR_BITS(var, mask)                                                      \
    for (int _wi = 0; _wi < NW; _wi++)                                           \
        for (uint64_t _x = (mask).w[_wi]; _x; _x &= _x - 1)                      \
            for (int var = _wi * 64 + ctz64(_x), _once = 1; _once; _once = 0)

/* The same, for a loop inside a FOR_BITS body. */
#define FOR_BITS_INNER(var, mask)                                                \
    for (int _wj = 0; _wj < NW; _wj++)                                           \
        for (uint64_t _y = (mask).w[_wj]; _y; _y &= _y - 1)                      \
            for (int var = _wj * 64 + ctz64(_y), _once2 = 1; _once2; _once2 = 0)
