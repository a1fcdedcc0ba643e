/* Random playouts to the end of the game, one per game, with the same distribution as
 * choosing uniformly among the legal moves at every ply (the Python playouts' fast
 * paths, in C). Each move played is recorded as an AMAF key: slot * 2 + mover's colour.
 * Returns the number of keys written. */

static int F(playout_squares)(const Ctx *c, State *s, Rng *rng, int *keys, int *mv)
{
    int nk = 0, n2 = c->ncells, empties[MAXCELLS], ne = 0;
    BB empty = ANDNOT(c->board, OR(OR(s->a, s->b), s->c));
    FOR_BITS(b, empty) { empties[ne++] = b; }
    F(Found) found[4 * MAXLEVELS + 8];
    while (s->passes < 2 && nk < MAXPLIES - 1) {
        int ctotal;
        F(find_captures)(c, s, found, &ctotal);
        int total = ne + ctotal + s->swap, turn = s->turn;
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
            keys[nk++] = F(amaf_slot)(c, move) * 2 + turn;
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
    BB region, legal;
    int count;
} F(Free);

static int F(playout_linage)(const Ctx *c, State *s, Rng *rng, int *keys, int *mv)
{
    int nk = 0, w = c->stride, nf = 0, total = 0;
    if (s->passes >= 2) return 0;
    F(Free) free_[MAXREGIONS];
    BB rest = s->a;
    while (ANY(rest)) {
        BB region = F(component)(LOWBIT(rest), rest, w);
        rest = ANDNOT(rest, region);
        if (F(linage_owner)(region, w) < 0 && nf < MAXREGIONS) {
            BB legal = F(legal_in_region)(c, region);
            free_[nf].region = region;
            free_[nf].legal = legal;
            free_[nf].count = COUNT(legal);
            total += free_[nf++].count;
        }
    }
    while (s->passes < 2 && nk < MAXPLIES - 1) {
        int turn = s->turn;
        int pick = (int)rng_below(rng, (uint32_t)(total + 1));
        if (pick == total) {
            s->passes++;
            s->turn ^= 1;
            if (mv) mv[nk] = MOVE_PASS;
            keys[nk++] = (c->slots - 2) * 2 + turn;
            continue;
        }
        int i = 0;
        while (pick >= free_[i].count) pick -= free_[i++].count;
        int bit = F(bb_nth)(free_[i].legal, pick);
        BB region = free_[i].region;
        total -= free_[i].count;
        free_[i] = free_[--nf];
        F(bb_clear)(&s->a, bit);
        s->passes = 0;
        s->turn ^= 1;
        if (mv) mv[nk] = c->dense[bit];
        keys[nk++] = c->dense[bit] * 2 + turn;
        F(bb_clear)(&region, bit);
        while (ANY(region)) {
            BB part = F(component)(LOWBIT(region), region, w);
            region = ANDNOT(region, part);
            if (F(linage_owner)(part, w) < 0 && nf < MAXREGIONS) {
                BB legal = F(legal_in_region)(c, part);
                free_[nf].region = part;
                free_[nf].legal = legal;
                free_[nf].count = COUNT(legal);
                total += free_[nf++].count;
            }
        }
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
