/* Random playouts to the end of the game, one per game, with the same distribution as
 * choosing uniformly among the legal moves at every ply (the Python playouts' fast
 * paths, in C). Each move played is recorded as an AMAF key: slot * 2 + mover's colour.
 * Returns the number of keys written. */

/* The height of the stack on a bit (Pilo). */
static inline int F(height_at)(const State *s, int bit)
{
    if (!TEST(s->d, bit)) return 1;
    for (int h = 2; h < MAXLEVELS; h++)
        if (TEST(s->lv[h], bit)) return h;
    return 1;
}

/* A uniform legal move among placements, swap and captures by rejection, while the
   placements are many: a placement, the swap or a (mover, direction) pair is drawn
   uniformly and a pair is drawn again unless its slide captures. Every capture is
   exactly one pair, so what is accepted is uniform over the legal moves, and a ply costs
   a few steps along one line instead of the occluded fills of every direction.
   Returns 0 when the draw should be made the exact way (too many pairs per move). */
static int F(draw_squares)(const Ctx *c, const State *s, Rng *rng, int ne, int *pick_out,
                           int *origin_out, int *target_out)
{
    BB mine = s->turn ? s->b : s->a, theirs = s->turn ? s->a : s->b;
    BB movers = c->game == G_PETRIFY ? ANDNOT(mine, s->d) : mine;
    int stride = c->stride, dirs = c->game == G_PETRIFY ? 8 : 4;
    const int steps[8] = {1, -1, stride, -stride, stride + 1, -stride - 1, stride - 1, -stride + 1};
    int m = ANY(theirs) ? COUNT(movers) : 0;
    int pairs = m * dirs, base = ne + s->swap;
    if (!ne || base * 4 < pairs) return 0;
    BB passable = ANDNOT(c->board, OR(s->c, theirs));
    for (int tries = 0; tries < 64; tries++) {
        int pick = (int)rng_below(rng, (uint32_t)(base + pairs));
        if (pick < base) {
            *pick_out = pick;
            return 1;
        }
        pick -= base;
        int origin = F(bb_nth)(movers, pick / dirs), step = steps[pick % dirs];
        int bit = F(slide_target)(origin, step, passable);
        if (!TEST(theirs, bit)) continue;
        if (c->game == G_PILO && F(height_at)(s, bit) != F(height_at)(s, origin)) continue;
        *pick_out = -1;
        *origin_out = origin;
        *target_out = bit;
        return 1;
    }
    return 0;
}

static int F(playout_squares)(const Ctx *c, State *s, Rng *rng, int *keys, int *mv)
{
    int nk = 0, n2 = c->ncells, empties[MAXCELLS], ne = 0;
    BB empty = ANDNOT(c->board, OR(OR(s->a, s->b), s->c));
    FOR_BITS(b, empty) { empties[ne++] = b; }
    F(Found) found[4 * MAXLEVELS + 8];
    while (s->passes < 2 && nk < MAXPLIES - 1) {
        int turn = s->turn, drawn, origin = -1, target = -1;
        if (F(draw_squares)(c, s, rng, ne, &drawn, &origin, &target)) {
            if (drawn < 0) { /* a capture */
                F(slide_capture)(c, s, origin, target, 0);
                int move = n2 + c->dense[origin] * n2 + c->dense[target];
                if (mv) mv[nk] = move;
                keys[nk++] = F(amaf_key)(c, move, turn);
                s->swap = 0;
            } else if (drawn < ne) {
                int bit = empties[drawn];
                empties[drawn] = empties[--ne];
                F(bb_set)(turn ? &s->b : &s->a, bit);
                if (mv) mv[nk] = c->dense[bit];
                keys[nk++] = c->dense[bit] * 2 + turn;
                s->swap = s->last == NO_COLOUR ? (int8_t)c->pie : 0;
            } else { /* the swap */
                s->swap = 0;
                if (mv) mv[nk] = MOVE_SWAP;
                keys[nk++] = (c->slots - 1) * 2 + turn;
                continue;
            }
            s->passes = 0;
            s->last = (int8_t)turn;
            s->turn ^= 1;
            continue;
        }
        int ctotal;
        F(find_captures)(c, s, found, &ctotal);
        int total = ne + ctotal + s->swap;
        if (!total) {
            s->passes++;
            s->turn ^= 1;
            if (mv) mv[nk] = MOVE_PASS;
            keys[nk++] = (c->slots - 2) * 2 + turn;
            continue;
        }
        int pick = (int)rng_below(rng, (uint32_t)total);
        if (pick < ne) {
            int bit = empties[pick];
            empties[pick] = empties[--ne];
            F(bb_set)(turn ? &s->b : &s->a, bit);
            if (mv) mv[nk] = c->dense[bit];
            keys[nk++] = c->dense[bit] * 2 + turn;
            s->swap = s->last == NO_COLOUR ? (int8_t)c->pie : 0;
        } else if (s->swap && pick == total - 1) {
            s->swap = 0;
            if (mv) mv[nk] = MOVE_SWAP;
            keys[nk++] = (c->slots - 1) * 2 + turn;
            continue;
        } else {
            pick -= ne;
            int i = 0;
            for (;; i++) {
                int cnt = COUNT(found[i].origins);
                if (pick < cnt) break;
                pick -= cnt;
            }
            BB theirs = turn ? s->a : s->b;
            BB passable = ANDNOT(c->board, OR(s->c, theirs));
            int origin = F(bb_nth)(found[i].origins, pick);
            int target = F(slide_target)(origin, found[i].step, passable);
            F(slide_capture)(c, s, origin, target, found[i].height);
            int move = n2 + c->dense[origin] * n2 + c->dense[target];
            if (mv) mv[nk] = move;
            keys[nk++] = F(amaf_key)(c, move, turn);
            s->swap = 0;
        }
        s->passes = 0;
        s->last = (int8_t)turn;
        s->turn ^= 1;
    }
    return nk;
}

static int F(playout_egotzi)(const Ctx *c, State *s, Rng *rng, int *keys, int *mv)
{
    int nk = 0, empties[MAXCELLS], where[MAXCELLS], ne = 0;
    BB occupied = OR(s->a, s->b);
    BB empty = ANDNOT(c->board, occupied);
    FOR_BITS(b, empty)
    {
        where[b] = ne;
        empties[ne++] = b;
    }
    int turn = COUNT(occupied) & 1, moved[8];
    while (ne) {
        int pick = (int)rng_below(rng, (uint32_t)(ne + s->swap));
        if (pick == ne) {
            s->swap = 0;
            if (mv) mv[nk] = MOVE_SWAP;
            keys[nk++] = (c->slots - 1) * 2 + turn;
            continue;
        }
        int p = empties[pick];
        if (mv) mv[nk] = p;
        keys[nk++] = p * 2 + turn;
        s->swap = (int8_t)(c->pie && !ANY(OR(s->a, s->b)));
        int last = empties[--ne];
        if (last != p) {
            where[last] = where[p];
            empties[where[p]] = last;
        }
        int m = F(eg_place)(c, s, p, turn, moved);
        for (int i = 0; i < m; i += 2) {
            int from = moved[i], to = moved[i + 1], index = where[to];
            empties[index] = from;
            where[from] = index;
        }
        turn ^= 1;
    }
    return nk;
}

typedef struct {
    BB region, h, v;
    int count, lines;
} F(Free);

/* The parts of a free region after a stone on p (region no longer holds p): floods grow
   from p's empty neighbours in step, joining where they meet; one that stops growing on
   its own is a part. The work is that of the smaller parts, not of the whole region. */
static int F(split_at)(const Ctx *c, BB region, int p, BB *out)
{
    int w = c->stride, k = 0, n = 0;
    BB f[4];
    int alive[4];
    const int steps[4] = {1, -1, w, -w};
    for (int i = 0; i < 4; i++) {
        int x = p + steps[i];
        if (x >= 0 && x < c->nbits && TEST(region, x)) {
            f[k] = BIT(x);
            alive[k++] = 1;
        }
    }
    int active = k;
    while (active > 1) {
        int grew[4];
        for (int i = 0; i < k; i++) {
            if (!alive[i]) continue;
            BB g = F(grow4)(f[i], region, w);
            grew[i] = !EQ(g, f[i]);
            f[i] = g;
        }
        for (int i = 0; i < k; i++)
            for (int j = i + 1; j < k; j++)
                if (alive[i] && alive[j] && ANY(AND(f[i], f[j]))) {
                    f[i] = OR(f[i], f[j]);
                    grew[i] = grew[i] || grew[j];
                    alive[j] = 0;
                    active--;
                }
        for (int i = 0; i < k && active > 1; i++)
            if (alive[i] && !grew[i]) {
                out[n++] = f[i];
                region = ANDNOT(region, f[i]);
                alive[i] = 0;
                active--;
            }
    }
    if (ANY(region)) out[n++] = region;
    return n;
}

/* Add the parts of `region` that are free (a line both ways) to the list; `split` is the
   point just taken from it when that may have split it, else -1. `hs` and `vs` are the
   region's line starts (a stone only takes away the lines through it). */
static void F(add_free)(const Ctx *c, F(Free) * free_, int *nf, int *total, BB region, int split,
                        BB hs, BB vs)
{
    BB parts[MAXREGIONS * 2];
    int np = 1;
    if (split >= 0)
        np = F(split_at)(c, region, split, parts);
    else
        parts[0] = region;
    for (int i = 0; i < np && *nf < MAXREGIONS; i++) {
        BB h = np > 1 ? AND(hs, parts[i]) : hs, v = np > 1 ? AND(vs, parts[i]) : vs;
        if (!ANY(h) || !ANY(v)) continue;
        F(Free) *f = &free_[(*nf)++];
        f->region = parts[i];
        f->h = h;
        f->v = v;
        f->count = COUNT(parts[i]);
        f->lines = COUNT(h) + COUNT(v);
        *total += f->count;
    }
}

/* The free regions of a position. */
static void F(free_regions)(const Ctx *c, F(Free) * free_, int *nf, int *total, BB empty)
{
    BB parts[MAXREGIONS * 2];
    int np = F(parts)(c, empty, parts, MAXREGIONS * 2);
    for (int i = 0; i < np; i++) {
        BB h, v;
        F(line_starts)(parts[i], c->stride, &h, &v);
        F(add_free)(c, free_, nf, total, parts[i], -1, h, v);
    }
}

/* Linage: a uniform choice among the legal placements and pass, by rejection: a point of
   a free region (or pass) is drawn uniformly and drawn again while it is illegal, which
   is uniform over what is accepted, and checks one point instead of listing them all.
   After many refusals in a row the legal placements are listed once instead. */
static int F(playout_linage)(const Ctx *c, State *s, Rng *rng, int *keys, int *mv)
{
    int nk = 0, nf = 0, total = 0;
    if (s->passes >= 2) return 0;
    F(Free) free_[MAXREGIONS];
    F(free_regions)(c, free_, &nf, &total, s->a);
    while (s->passes < 2 && nk < MAXPLIES - 1) {
        int turn = s->turn, bit = -1, i = 0, risky = 1;
        for (int tries = 0; bit < 0; tries++) {
            if (tries < 64) {
                int pick = (int)rng_below(rng, (uint32_t)(total + 1));
                if (pick == total) break; /* pass */
                i = 0;
                while (pick >= free_[i].count) pick -= free_[i++].count;
                int p = F(bb_nth)(free_[i].region, pick);
                F(Free) *f = &free_[i];
                if (F(point_legal)(c, f->region, f->h, f->v, f->lines, p, &risky)) bit = p;
                continue;
            }
            /* Many refusals in a row: list the legal placements once and draw. */
            BB legal = F(linage_legal)(c, s->a);
            int count = COUNT(legal);
            int pick = (int)rng_below(rng, (uint32_t)(count + 1));
            if (pick == count) break;
            bit = F(bb_nth)(legal, pick);
            for (i = 0; i < nf && !TEST(free_[i].region, bit); i++) {
            }
            risky = 1;
        }
        if (bit < 0) {
            s->passes++;
            s->turn ^= 1;
            if (mv) mv[nk] = MOVE_PASS;
            keys[nk++] = (c->slots - 2) * 2 + turn;
            continue;
        }
        BB region = free_[i].region;
        BB h = ANDNOT(free_[i].h, c->hthrough[bit]), v = ANDNOT(free_[i].v, c->vthrough[bit]);
        total -= free_[i].count;
        free_[i] = free_[--nf];
        F(bb_clear)(&s->a, bit);
        s->passes = 0;
        s->turn ^= 1;
        if (mv) mv[nk] = c->dense[bit];
        keys[nk++] = c->dense[bit] * 2 + turn;
        F(bb_clear)(&region, bit);
        F(add_free)(c, free_, &nf, &total, region, risky ? bit : -1, h, v);
    }
    return nk;
}

static int F(playout_partitions)(const Ctx *c, State *s, Rng *rng, int *keys, int *mv)
{
    int nk = 0, empties[MAXCELLS], ne = 0;
    BB empty = ANDNOT(c->board, OR(s->a, s->b));
    FOR_BITS(b, empty) { empties[ne++] = b; }
    int turn = s->turn;
    for (int i = ne - 1; i > 0; i--) {
        int j = (int)rng_below(rng, (uint32_t)(i + 1));
        int t = empties[i];
        empties[i] = empties[j];
        empties[j] = t;
    }
    for (int i = 0; i < ne; i++) {
        int bit = empties[i];
        if (turn)
            F(bb_set)(&s->b, bit);
        else
            F(bb_set)(&s->a, bit);
        if (mv) mv[nk] = c->dense[bit];
        keys[nk++] = c->dense[bit] * 2 + turn;
        turn ^= 1;
    }
    s->turn = (int8_t)turn;
    return nk;
}

static int F(playout)(const Ctx *c, State *s, Rng *rng, int *keys, int *mv)
{
    switch (c->game) {
    case G_PETRIFY:
    case G_PILO:
        return F(playout_squares)(c, s, rng, keys, mv);
    case G_EGOTZI:
        return F(playout_egotzi)(c, s, rng, keys, mv);
    case G_LINAGE:
        return F(playout_linage)(c, s, rng, keys, mv);
    case G_PARTITIONS:
        return F(playout_partitions)(c, s, rng, keys, mv);
    }
    return 0;
}
