/* The rules of the five games on NW-word bitboards; included once per word count.
 *
 * Each function mirrors the Python rules (abstracts_tui/rules/), the readable reference:
 * the same layouts (Petrify and Pilo's padded board in a ring of blocks, Linage's rows
 * with a sentinel bit, Partitions' axial rows with a guard column), the same move codes
 * and the same algorithms, so that the differential test can hold them to each other.
 */

typedef struct {
    int game, size, ncells, nbits, pie, stride, rounds, max_height, slots;
    double komi;
    int16_t pad[MAXBITS];   /* dense cell -> bit of the internal layout */
    int16_t dense[MAXBITS]; /* bit -> dense cell, -1 off the board */
    BB board;               /* every cell of the board */
    BB ring;                /* Petrify, Pilo: the ring of blocks */
    /* Egotzi: per cell, the row and the column through it: low neighbour, the cells
       beyond it, high neighbour, the cells beyond it, the whole line. */
    BB eline[81][2][5];
    BB not_first_col, not_last_col; /* Egotzi: masks for growing groups sideways */
    /* Linage: starts of the lines through each point, and its neighbours. */
    BB hthrough[MAXBITS], vthrough[MAXBITS], beside[MAXBITS];
    int16_t hanchor[MAXBITS][3], vanchor[MAXBITS][3]; /* the same as bit lists, -1 unused */
    /* Partitions: cells touching the outside, and border pairs along 1, width, width+1. */
    BB border, pair_side, pair_up, pair_diag;
} Ctx;

typedef struct {
    BB a, b, c, d; /* Petrify: Blue, Orange, blocks, forbidden; Pilo: Blue, Orange, blocks,
                      tall; Egotzi: Black, White; Linage: empty; Partitions: White, Black */
    BB lv[MAXLEVELS]; /* Pilo: stacks of each height (2 and up) */
    int8_t turn, passes, last, swap;
} State;

#define AND F(bb_and)
#define OR F(bb_or)
#define XOR F(bb_xor)
#define ANDNOT F(bb_andnot)
#define ANY F(bb_any)
#define EQ F(bb_eq)
#define COUNT F(bb_count)
#define TEST F(bb_test)
#define SHL F(bb_shl)
#define SHR F(bb_shr)
#define ZERO F(bb_zero)
#define BIT F(bb_bit)
#define LOW F(bb_low)
#define HIGH F(bb_high)
#define LOWBIT F(bb_lowbit)

/* -- context ---------------------------------------------------------------------- */

static int F(ctx_init)(Ctx *c, int game, int size, int pie, double komi)
{
    int n = size;
    memset(c, 0, sizeof *c);
    c->game = game;
    c->size = n;
    c->pie = pie;
    c->komi = komi;
    for (int i = 0; i < MAXBITS; i++) c->dense[i] = -1;
    if (game == G_PETRIFY || game == G_PILO) {
        int stride = n + 3;
        c->stride = stride;
        c->ncells = n * n;
        c->nbits = (n + 2) * stride;
        for (int cell = 0; cell < n * n; cell++) {
            int bit = (cell / n + 1) * stride + cell % n + 1;
            c->pad[cell] = (int16_t)bit;
            c->dense[bit] = (int16_t)cell;
            F(bb_set)(&c->board, bit);
        }
        for (int row = 0; row < n + 2; row++)
            for (int col = 0; col < n + 2; col++)
                if (row == 0 || row == n + 1 || col == 0 || col == n + 1)
                    F(bb_set)(&c->ring, row * stride + col);
        int r = 0;
        for (int v = n - 2; v > 0; v >>= 1) r++;
        c->rounds = r > 1 ? r : 1;
        int mh = 0;
        for (int v = n * n + 1; v > 0; v >>= 1) mh++;
        c->max_height = mh;
        /* AMAF slots: placements, then captures folded by a hash, then pass and swap. */
        c->slots = 3 * n * n + 2;
    } else if (game == G_EGOTZI) {
        c->stride = n;
        c->ncells = n * n;
        c->nbits = n * n;
        for (int cell = 0; cell < n * n; cell++) {
            c->pad[cell] = (int16_t)cell;
            c->dense[cell] = (int16_t)cell;
            F(bb_set)(&c->board, cell);
            int col = cell % n, row = cell / n;
            if (col != 0) F(bb_set)(&c->not_first_col, cell);
            if (col != n - 1) F(bb_set)(&c->not_last_col, cell);
            BB *rl = c->eline[cell][0], *cl = c->eline[cell][1];
            for (int k = 0; k < 5; k++) rl[k] = cl[k] = ZERO();
            for (int cc = col - 1; cc >= 0; cc--)
                F(bb_set)(cc == col - 1 ? &rl[0] : &rl[1], row * n + cc);
            for (int cc = col + 1; cc < n; cc++)
                F(bb_set)(cc == col + 1 ? &rl[2] : &rl[3], row * n + cc);
            for (int cc = 0; cc < n; cc++) F(bb_set)(&rl[4], row * n + cc);
            for (int rr = row - 1; rr >= 0; rr--)
                F(bb_set)(rr == row - 1 ? &cl[0] : &cl[1], rr * n + col);
            for (int rr = row + 1; rr < n; rr++)
                F(bb_set)(rr == row + 1 ? &cl[2] : &cl[3], rr * n + col);
            for (int rr = 0; rr < n; rr++) F(bb_set)(&cl[4], rr * n + col);
        }
        c->slots = n * n + 2;
    } else if (game == G_LINAGE) {
        int w = n + 1;
        c->stride = w;
        c->ncells = n * n;
        c->nbits = n * w;
        for (int cell = 0; cell < n * n; cell++) {
            int col = cell % n, row = cell / n, p = row * w + col;
            c->pad[cell] = (int16_t)p;
            c->dense[p] = (int16_t)cell;
            F(bb_set)(&c->board, p);
        }
        for (int cell = 0; cell < n * n; cell++) {
            int col = cell % n, row = cell / n, p = c->pad[cell];
            for (int k = 0; k < 3; k++) {
                c->hanchor[p][k] = c->vanchor[p][k] = -1;
                if (col - k >= 0 && col - k <= n - 3) {
                    F(bb_set)(&c->hthrough[p], p - k);
                    c->hanchor[p][k] = (int16_t)(p - k);
                }
                if (row - k >= 0 && row - k <= n - 3) {
                    F(bb_set)(&c->vthrough[p], p - k * w);
                    c->vanchor[p][k] = (int16_t)(p - k * w);
                }
            }
            static const int dirs[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
            for (int d = 0; d < 4; d++) {
                int cc = col + dirs[d][0], rr = row + dirs[d][1];
                if (cc >= 0 && cc < n && rr >= 0 && rr < n)
                    F(bb_set)(&c->beside[p], p + dirs[d][0] + dirs[d][1] * w);
            }
        }
        c->slots = n * n + 2;
    } else if (game == G_PARTITIONS) {
        int width = 2 * n, rows = 2 * n - 1, cell = 0;
        c->stride = width;
        c->nbits = rows * width;
        for (int row = 0; row < rows; row++) {
            int len = n + (row < rows - 1 - row ? row : rows - 1 - row);
            int first = row - (n - 1) > 0 ? row - (n - 1) : 0;
            for (int k = 0; k < len; k++, cell++) {
                int p = row * width + first + k;
                c->pad[cell] = (int16_t)p;
                c->dense[p] = (int16_t)cell;
                F(bb_set)(&c->board, p);
            }
        }
        c->ncells = cell;
        for (int i = 0; i < cell; i++) {
            int p = c->pad[i], count = 0;
            int steps[6] = {-width - 1, -width, -1, 1, width, width + 1};
            for (int k = 0; k < 6; k++) {
                int q = p + steps[k];
                if (q >= 0 && q < c->nbits && c->dense[q] >= 0) count++;
            }
            if (count < 6) F(bb_set)(&c->border, p);
        }
        int ds[3] = {1, width, width + 1};
        BB *pairs[3] = {&c->pair_side, &c->pair_up, &c->pair_diag};
        for (int k = 0; k < 3; k++)
            for (int i = 0; i < cell; i++) {
                int p = c->pad[i], q = p + ds[k];
                if (TEST(c->border, p) && q < c->nbits && c->dense[q] >= 0 && TEST(c->border, q))
                    F(bb_set)(pairs[k], p);
            }
        c->slots = cell + 2;
    } else {
        return -1;
    }
    return 0;
}

/* The AMAF slot of a move: placements by cell, captures folded, pass and swap last. */
static inline int F(amaf_slot)(const Ctx *c, int move)
{
    int n2 = c->ncells;
    if (move == MOVE_PASS) return c->slots - 2;
    if (move == MOVE_SWAP) return c->slots - 1;
    if (move < n2) return move;
    int x = move - n2, frm = x / n2, to = x % n2;
    return n2 + (int)(((unsigned)frm * 131u + (unsigned)to) % (unsigned)(2 * n2));
}

/* The AMAF key of a move played by `colour`: its entry in an AMAF table. */
static inline int F(amaf_key)(const Ctx *c, int move, int colour)
{
    return F(amaf_slot)(c, move) * 2 + colour;
}

/* -- Petrify and Pilo: sliding captures --------------------------------------------- */

/* The movers that, sliding by +d (sign > 0) or -d over passable squares, first meet a
   target: the occluded fill of squares.capture_origins. The fill must reach `span`
   squares back from the targets (size - 2): doubling steps while they stay short, then
   single steps, so that no shift crosses more than one word. */
static inline BB F(origins)(BB movers, BB targets, BB passable, int d, int span, int sign)
{
    BB g = targets, p = passable, p0 = passable;
    int reach = 1, step = d;
    if (sign > 0) {
        g = OR(g, AND(p, SHR(g, d)));
        while (reach < span && 2 * step < 64) {
            p = AND(p, SHR(p, step));
            step *= 2;
            g = OR(g, AND(p, SHR(g, step)));
            reach = 2 * reach + 1;
        }
        for (; reach < span; reach++) g = OR(g, AND(p0, SHR(g, d)));
        return AND(SHR(g, d), movers);
    }
    g = OR(g, AND(p, SHL(g, d)));
    while (reach < span && 2 * step < 64) {
        p = AND(p, SHL(p, step));
        step *= 2;
        g = OR(g, AND(p, SHL(g, step)));
        reach = 2 * reach + 1;
    }
    for (; reach < span; reach++) g = OR(g, AND(p0, SHL(g, d)));
    return AND(SHL(g, d), movers);
}

static inline int F(slide_target)(int origin, int step, BB passable)
{
    int bit = origin + step;
    while (TEST(passable, bit)) bit += step;
    return bit;
}

/* Where one more block would complete a mound or a barricade (petrify.formation_mask). */
static BB F(formation_mask)(BB blocks, int up, BB board)
{
    BB right = SHR(blocks, 1), left = SHL(blocks, 1);
    BB above = SHR(blocks, up), below = SHL(blocks, up);
    BB up_right = SHR(blocks, up + 1), up_left = SHR(blocks, up - 1);
    BB down_right = SHL(blocks, up - 1), down_left = SHL(blocks, up + 1);
    BB mound = OR(OR(AND(AND(right, above), up_right), AND(AND(left, above), up_left)),
                  OR(AND(AND(right, below), down_right), AND(AND(left, below), down_left)));
    BB rising = OR(OR(AND(up_right, SHR(blocks, 2 * up + 2)), AND(up_right, down_left)),
                   AND(down_left, SHL(blocks, 2 * up + 2)));
    BB falling = OR(OR(AND(up_left, SHR(blocks, 2 * up - 2)), AND(up_left, down_right)),
                    AND(down_right, SHL(blocks, 2 * up - 2)));
    return AND(OR(OR(mound, rising), falling), board);
}

/* One class of captures: movers and targets of a height (Pilo) or all (Petrify). */
typedef struct {
    int step;
    BB origins;
    int height;
} F(Found);

/* Capture origins of `colour` by class, into found[]; returns how many entries. */
static int F(find_captures)(const Ctx *c, const State *s, F(Found) * found, int *total)
{
    BB mine = s->turn ? s->b : s->a, theirs = s->turn ? s->a : s->b;
    int count = 0;
    *total = 0;
    if (!ANY(mine) || !ANY(theirs)) return 0;
    BB passable = ANDNOT(c->board, OR(s->c, theirs));
    int stride = c->stride;
    if (c->game == G_PETRIFY) {
        BB movers = ANDNOT(mine, s->d);
        if (!ANY(movers)) return 0;
        int steps[4] = {1, stride, stride + 1, stride - 1};
        for (int k = 0; k < 4; k++)
            for (int sign = 1; sign >= -1; sign -= 2) {
                BB o = F(origins)(movers, theirs, passable, steps[k], c->size - 2, sign);
                if (ANY(o)) {
                    found[count].step = sign * steps[k];
                    found[count].origins = o;
                    found[count].height = 1;
                    *total += COUNT(o);
                    count++;
                }
            }
        return count;
    }
    int steps[2] = {1, stride};
    for (int h = 1; h <= c->max_height + 1; h++) {
        BB my, th;
        if (h == 1) {
            my = ANDNOT(mine, s->d);
            th = ANDNOT(theirs, s->d);
        } else {
            if (!ANY(s->lv[h])) continue;
            my = AND(mine, s->lv[h]);
            th = AND(theirs, s->lv[h]);
        }
        if (!ANY(my) || !ANY(th)) continue;
        for (int k = 0; k < 2; k++)
            for (int sign = 1; sign >= -1; sign -= 2) {
                BB o = F(origins)(my, th, passable, steps[k], c->size - 2, sign);
                if (ANY(o)) {
                    found[count].step = sign * steps[k];
                    found[count].origins = o;
                    found[count].height = h;
                    *total += COUNT(o);
                    count++;
                }
            }
    }
    return count;
}

static void F(slide_capture)(const Ctx *c, State *s, int origin, int target, int height)
{
    BB o = BIT(origin), t = BIT(target), ot = OR(o, t);
    if (c->game == G_PILO) {
        if (height == 0) {
            height = 1;
            if (TEST(s->d, origin))
                for (int h = 2; h < MAXLEVELS; h++)
                    if (TEST(s->lv[h], origin)) {
                        height = h;
                        break;
                    }
        }
        if (height >= 2) s->lv[height] = ANDNOT(s->lv[height], ot);
        s->lv[height + 1] = OR(s->lv[height + 1], t);
        s->d = OR(ANDNOT(s->d, o), t);
    }
    if (s->turn) {
        s->b = XOR(s->b, ot);
        s->a = XOR(s->a, t);
    } else {
        s->a = XOR(s->a, ot);
        s->b = XOR(s->b, t);
    }
    s->c = OR(s->c, o);
    if (c->game == G_PETRIFY) s->d = F(formation_mask)(s->c, c->stride, c->board);
}

/* -- components ------------------------------------------------------------------------ */

/* The squares of `within` orthogonally connected to `start` (padded layouts). */
static inline BB F(component)(BB start, BB within, int stride)
{
    BB found = start;
    for (;;) {
        BB grown = AND(OR(OR(OR(found, SHL(found, 1)), OR(SHR(found, 1), SHL(found, stride))),
                          SHR(found, stride)),
                       within);
        if (EQ(grown, found)) return found;
        found = grown;
    }
}

/* Egotzi's dense layout: sideways growth must not wrap from one row to the next. */
static inline BB F(ecomponent)(const Ctx *c, BB start, BB within)
{
    int n = c->size;
    BB found = start;
    for (;;) {
        BB side = OR(SHL(AND(found, c->not_last_col), 1), SHR(AND(found, c->not_first_col), 1));
        BB grown = AND(OR(OR(found, side), OR(SHL(found, n), SHR(found, n))), within);
        if (EQ(grown, found)) return found;
        found = grown;
    }
}

/* pairs.biggest_left: the colour whose group left after cancelling is biggest, -1 if none. */
static int F(owner_after_cancelling)(const int *sizes0, int n0, const int *sizes1, int n1)
{
    int best0 = 0, best1 = 0;
    for (int i = 0; i < n0 + n1; i++) {
        int size = i < n0 ? sizes0[i] : sizes1[i - n0];
        int d = 0;
        for (int j = 0; j < n0; j++) d += sizes0[j] == size;
        for (int j = 0; j < n1; j++) d -= sizes1[j] == size;
        if (d > 0 && size > best0) best0 = size;
        if (d < 0 && size > best1) best1 = size;
    }
    if (best0 == best1) return -1;
    return best0 > best1 ? 0 : 1;
}

static void F(biggest_left)(const int *sizes0, int n0, const int *sizes1, int n1, int *b0, int *b1)
{
    int best0 = 0, best1 = 0;
    for (int i = 0; i < n0 + n1; i++) {
        int size = i < n0 ? sizes0[i] : sizes1[i - n0];
        int d = 0;
        for (int j = 0; j < n0; j++) d += sizes0[j] == size;
        for (int j = 0; j < n1; j++) d -= sizes1[j] == size;
        if (d > 0 && size > best0) best0 = size;
        if (d < 0 && size > best1) best1 = size;
    }
    *b0 = best0;
    *b1 = best1;
}

/* Petrify and Pilo: the patch scores (squares.patch_points). */
static void F(patch_points)(const Ctx *c, const State *s, int *out0, int *out1)
{
    BB gm[2][MAXCELLS];
    int gs[2][MAXCELLS], ng[2] = {0, 0};
    for (int colour = 0; colour < 2; colour++) {
        BB rest = colour ? s->b : s->a;
        while (ANY(rest)) {
            BB part = F(component)(LOWBIT(rest), rest, c->stride);
            gm[colour][ng[colour]] = part;
            gs[colour][ng[colour]++] = COUNT(part);
            rest = ANDNOT(rest, part);
        }
    }
    int points[2] = {0, 0};
    BB rest = ANDNOT(c->board, s->c);
    while (ANY(rest)) {
        BB patch = F(component)(LOWBIT(rest), rest, c->stride);
        rest = ANDNOT(rest, patch);
        int s0[MAXCELLS], s1[MAXCELLS], n0 = 0, n1 = 0;
        for (int i = 0; i < ng[0]; i++)
            if (ANY(AND(gm[0][i], patch))) s0[n0++] = gs[0][i];
        for (int i = 0; i < ng[1]; i++)
            if (ANY(AND(gm[1][i], patch))) s1[n1++] = gs[1][i];
        int owner;
        if (!n1)
            owner = n0 ? 0 : -1;
        else if (!n0)
            owner = 1;
        else
            owner = F(owner_after_cancelling)(s0, n0, s1, n1);
        if (owner >= 0) points[owner] += COUNT(patch);
    }
    *out0 = points[0];
    *out1 = points[1];
}

/* -- Egotzi ------------------------------------------------------------------------- */

/* egotzi._place: a stone of `colour` on the empty cell p, and every push. Records the
   stones moved as (from, to) pairs in moved[] (for the playout's list of empties). */
static int F(eg_place)(const Ctx *c, State *s, int p, int colour, int *moved)
{
    int count = 0;
    if (colour)
        F(bb_set)(&s->b, p);
    else
        F(bb_set)(&s->a, p);
    BB occupied = OR(s->a, s->b);
    BB empty = ANDNOT(c->board, occupied);
    for (int k = 0; k < 2; k++) {
        const BB *L = c->eline[p][k];
        BB line_empty = AND(L[4], empty);
        if (!ANY(line_empty)) continue;
        int tl = -1, th = -1;
        int low_full = ANY(AND(occupied, L[0])), high_full = ANY(AND(occupied, L[2]));
        if (low_full) {
            BB ahead_low = AND(L[1], line_empty);
            if (high_full) {
                BB ahead_high = AND(L[3], line_empty);
                if (ANY(ahead_low)) {
                    tl = HIGH(ahead_low);
                    if (ANY(ahead_high))
                        th = LOW(ahead_high);
                    else {
                        th = LOW(ahead_low);
                        if (th == tl) th = -1;
                    }
                } else {
                    th = LOW(ahead_high);
                    tl = HIGH(ahead_high);
                    if (tl == th) tl = -1;
                }
            } else {
                tl = HIGH(ANY(ahead_low) ? ahead_low : line_empty);
            }
        } else if (high_full) {
            BB ahead_high = AND(L[3], line_empty);
            th = LOW(ANY(ahead_high) ? ahead_high : line_empty);
        }
        if (tl >= 0) {
            int from = LOW(L[0]);
            BB m = OR(L[0], BIT(tl));
            if (ANY(AND(s->a, L[0])))
                s->a = XOR(s->a, m);
            else
                s->b = XOR(s->b, m);
            moved[count++] = from;
            moved[count++] = tl;
        }
        if (th >= 0) {
            int from = LOW(L[2]);
            BB m = OR(L[2], BIT(th));
            if (ANY(AND(s->a, L[2])))
                s->a = XOR(s->a, m);
            else
                s->b = XOR(s->b, m);
            moved[count++] = from;
            moved[count++] = th;
        }
    }
    return count;
}

static void F(eg_points)(const Ctx *c, const State *s, double *p0, double *p1)
{
    int sizes[2][MAXCELLS], ng[2] = {0, 0};
    for (int colour = 0; colour < 2; colour++) {
        BB rest = colour ? s->b : s->a;
        while (ANY(rest)) {
            BB part = F(ecomponent)(c, LOWBIT(rest), rest);
            sizes[colour][ng[colour]++] = COUNT(part);
            rest = ANDNOT(rest, part);
        }
    }
    if (!c->pie) {
        long sq[2] = {0, 0};
        for (int colour = 0; colour < 2; colour++)
            for (int i = 0; i < ng[colour]; i++) sq[colour] += sizes[colour][i] * sizes[colour][i];
        *p0 = (double)sq[0];
        *p1 = (double)sq[1] + c->komi;
        return;
    }
    int b0, b1;
    F(biggest_left)(sizes[0], ng[0], sizes[1], ng[1], &b0, &b1);
    *p0 = b0;
    *p1 = b1;
}

/* -- Linage --------------------------------------------------------------------------- */

static inline void F(line_starts)(BB empty, int w, BB *h, BB *v)
{
    *h = AND(AND(empty, SHR(empty, 1)), SHR(empty, 2));
    *v = AND(AND(empty, SHR(empty, w)), SHR(empty, w + w));
}

/* linage._may_split: the empty points whose removal might split their region. */
static BB F(may_split)(BB empty, int w)
{
    BB n = SHR(empty, w), s = SHL(empty, w), e = SHR(empty, 1), v = SHL(empty, 1);
    BB ne = AND(AND(n, e), SHR(empty, w + 1));
    BB se = AND(AND(s, e), SHL(empty, w - 1));
    BB sw = AND(AND(s, v), SHL(empty, w + 1));
    BB nw = AND(AND(n, v), SHR(empty, w - 1));
    BB t1 = ANDNOT(AND(n, e), OR(ne, AND(AND(nw, sw), se)));
    BB t2 = ANDNOT(AND(e, s), OR(se, AND(AND(ne, nw), sw)));
    BB t3 = ANDNOT(AND(s, v), OR(sw, AND(AND(se, ne), nw)));
    BB t4 = ANDNOT(AND(v, n), OR(nw, AND(AND(sw, se), ne)));
    BB t5 = ANDNOT(AND(n, s), OR(AND(ne, se), AND(nw, sw)));
    BB t6 = ANDNOT(AND(e, v), OR(AND(ne, nw), AND(se, sw)));
    return AND(empty, OR(OR(OR(t1, t2), OR(t3, t4)), OR(t5, t6)));
}

/* linage._in_every_line: the points on every line whose starts are h and v. */
static BB F(in_every_line)(BB h, BB v, int w)
{
    int low = LOW(h), high = HIGH(h);
    if (high > low + 2) return ZERO();
    BB across = F(bb_range)(high, low + 2);
    int vlow = LOW(v), vhigh = HIGH(v);
    BB allowed = OR(OR(BIT(vlow), BIT(vlow + w)), BIT(vlow + w + w));
    if (ANY(ANDNOT(v, allowed))) return ZERO();
    BB down = BIT(vlow + w + w);
    if (vhigh <= vlow + w) down = OR(down, BIT(vlow + w));
    if (vhigh == vlow) down = OR(down, BIT(vlow));
    return AND(across, down);
}

static inline BB F(grow4)(BB found, BB within, int w)
{
    return AND(OR(OR(OR(found, SHL(found, 1)), OR(SHR(found, 1), SHL(found, w))), SHR(found, w)),
               within);
}

/* linage._keeps_lines: whether every part of region minus p still holds a line. */
static int F(keeps_lines)(const Ctx *c, BB region, BB h, BB v, int p)
{
    int w = c->stride;
    BB hs = ANDNOT(h, c->hthrough[p]), vs = ANDNOT(v, c->vthrough[p]);
    BB kept = OR(OR(OR(hs, SHL(hs, 1)), OR(SHL(hs, 2), vs)), OR(SHL(vs, w), SHL(vs, w + w)));
    if (!ANY(kept)) return 0;
    BB rest = region;
    F(bb_clear)(&rest, p);
    BB todo = ANDNOT(AND(c->beside[p], rest), kept);
    while (ANY(todo)) {
        BB found = LOWBIT(todo), grown;
        for (;;) {
            grown = F(grow4)(found, rest, w);
            if (ANY(AND(grown, kept))) break;
            if (EQ(grown, found)) return 0;
            found = grown;
        }
        todo = ANDNOT(todo, grown);
    }
    return 1;
}

/* linage._legal_in: the legal placements of a free region. */
static BB F(legal_in)(const Ctx *c, BB region, BB h, BB v, BB risky)
{
    int w = c->stride;
    BB legal = ANDNOT(ANDNOT(region, risky), F(in_every_line)(h, v, w));
    risky = AND(risky, region);
    if (!ANY(risky)) return legal;
    BB across = OR(OR(h, SHL(h, 1)), SHL(h, 2));
    BB down = OR(OR(v, SHL(v, w)), SHL(v, w + w));
    BB stuck = OR(OR(ANDNOT(SHR(region, 1), OR(SHR(h, 1), SHR(down, 1))),
                     ANDNOT(SHL(region, 1), OR(SHL(h, 3), SHL(down, 1)))),
                  OR(ANDNOT(SHR(region, w), OR(SHR(v, w), SHR(across, w))),
                     ANDNOT(SHL(region, w), OR(SHL(v, 3 * w), SHL(across, w)))));
    legal = OR(legal, ANDNOT(risky, stuck));
    risky = AND(risky, stuck);
    if (!ANY(risky)) return legal;
    BB n = SHR(region, w), s = SHL(region, w), e = SHR(region, 1), west = SHL(region, 1);
    BB several = OR(OR(AND(n, OR(OR(s, e), west)), AND(s, OR(e, west))), AND(e, west));
    BB dead = ANDNOT(region, several);
    risky = ANDNOT(risky, OR(OR(SHR(dead, 1), SHL(dead, 1)), OR(SHR(dead, w), SHL(dead, w))));
    FOR_BITS(p, risky)
    {
        if (F(keeps_lines)(c, region, h, v, p)) F(bb_set)(&legal, p);
    }
    return legal;
}

static BB F(linage_legal)(const Ctx *c, BB empty)
{
    int w = c->stride;
    BB hs, vs;
    F(line_starts)(empty, w, &hs, &vs);
    BB risky = F(may_split)(empty, w);
    BB legal = ZERO(), rest = empty;
    while (ANY(rest)) {
        BB region = F(component)(LOWBIT(rest), rest, w);
        rest = ANDNOT(rest, region);
        BB h = AND(hs, region);
        if (ANY(h)) {
            BB v = AND(vs, region);
            if (ANY(v)) legal = OR(legal, F(legal_in)(c, region, h, v, risky));
        }
    }
    return legal;
}

/* The orthogonally connected parts of `region` (Linage's layout), by a search over its
   points: quicker than growing bitboards on the big regions of a 19x19 board. */
static int F(parts)(const Ctx *c, BB region, BB *out, int most)
{
    int w = c->stride, count = 0, nbits = c->nbits;
    int16_t stack[MAXBITS];
    const int steps[4] = {1, -1, w, -w};
    while (ANY(region) && count < most) {
        int start = LOW(region), top = 0;
        BB part = ZERO();
        F(bb_set)(&part, start);
        F(bb_clear)(&region, start);
        stack[top++] = (int16_t)start;
        while (top) {
            int u = stack[--top];
            for (int k = 0; k < 4; k++) {
                int x = u + steps[k];
                if (x < 0 || x >= nbits || !TEST(region, x)) continue;
                F(bb_clear)(&region, x);
                F(bb_set)(&part, x);
                stack[top++] = (int16_t)x;
            }
        }
        out[count++] = part;
    }
    return count;
}

/* Whether the point p of a free region splits it (linage._may_split for one point). */
static inline int F(point_risky)(const Ctx *c, BB region, int p)
{
    int w = c->stride, nbits = c->nbits;
#define E_(x) ((x) >= 0 && (x) < nbits && TEST(region, (x)))
    int n = E_(p + w), s = E_(p - w), e = E_(p + 1), v = E_(p - 1);
    int ne = n && e && E_(p + w + 1), se = s && e && E_(p - w + 1);
    int sw = s && v && E_(p - w - 1), nw = n && v && E_(p + w - 1);
#undef E_
    return (n && e && !(ne || (nw && sw && se))) || (e && s && !(se || (ne && nw && sw))) ||
           (s && v && !(sw || (se && ne && nw))) || (v && n && !(nw || (sw && se && ne))) ||
           (n && s && !((ne && se) || (nw && sw))) || (e && v && !((ne && nw) || (se && sw)));
}

/* Whether a stone on p (a point of the free region with line starts h and v, nh and nv
   of them) is legal: some line not through p is left, and when p may split the region,
   every part keeps one. */
static int F(point_legal)(const Ctx *c, BB region, BB h, BB v, int lines, int p, int *risky)
{
    int through = 0;
    for (int k = 0; k < 3; k++) {
        int a = c->hanchor[p][k], b = c->vanchor[p][k];
        if (a >= 0 && TEST(h, a)) through++;
        if (b >= 0 && TEST(v, b)) through++;
    }
    *risky = F(point_risky)(c, region, p);
    if (lines - through <= 0) return 0;
    if (!*risky) return 1;
    return F(keeps_lines)(c, region, h, v, p);
}

/* linage._owner: 0 Vertical (no horizontal line), 1 Horizontal (no vertical), -1 free. */
static inline int F(linage_owner)(BB region, int w)
{
    BB h, v;
    F(line_starts)(region, w, &h, &v);
    if (!ANY(h)) return 0;
    if (!ANY(v)) return 1;
    return -1;
}

static void F(linage_points)(const Ctx *c, const State *s, double *p0, double *p1)
{
    int owned[2] = {0, 0}, w = c->stride;
    BB rest = s->a;
    while (ANY(rest)) {
        BB region = F(component)(LOWBIT(rest), rest, w);
        rest = ANDNOT(rest, region);
        int owner = F(linage_owner)(region, w);
        if (owner >= 0) owned[owner] += COUNT(region);
    }
    *p0 = owned[0];
    *p1 = owned[1] + c->komi;
}

/* -- Partitions ------------------------------------------------------------------------ */

/* partitions._split: the cells of the fragment groups of one colour (padded). */
static inline BB F(fragments)(const Ctx *c, BB stones)
{
    int width = c->stride, up = width + 1;
    BB fragments = ZERO(), rest = stones;
    while (ANY(rest)) {
        BB group = LOWBIT(rest);
        for (;;) {
            BB left = SHL(group, 1), right = SHR(group, 1);
            BB grown = AND(OR(OR(OR(group, left), right),
                              OR(SHL(OR(group, left), width), SHR(OR(group, right), width))),
                           stones);
            if (EQ(grown, group)) break;
            group = grown;
        }
        rest = ANDNOT(rest, group);
        int size = COUNT(group), dividing = 0;
        if (size >= 3) {
            BB touch = AND(group, c->border);
            BB side = AND(group, SHR(group, 1));
            BB vertical = AND(group, SHR(group, width));
            BB diagonal = AND(group, SHR(group, up));
            int edges = COUNT(side) + COUNT(vertical) + COUNT(diagonal) + COUNT(touch);
            int triangles = COUNT(AND(diagonal, SHR(group, 1))) +
                            COUNT(AND(diagonal, SHR(group, width))) +
                            COUNT(AND(side, c->pair_side)) + COUNT(AND(vertical, c->pair_up)) +
                            COUNT(AND(diagonal, c->pair_diag));
            int pieces = ANY(touch) ? 1 : 2;
            dividing = pieces - (size + 1) + edges - triangles > 0;
        }
        if (!dividing) fragments = OR(fragments, group);
    }
    return fragments;
}

/* The same set as F(fragments), by labelling the groups in one pass over the stones
   (union-find) and counting each group's cells, edges and triangles from its cells'
   neighbours: linear in the cells, where growing each group is linear in its width. */
static inline BB F(fragments_fast)(const Ctx *c, BB stones)
{
    int width = c->stride, up = width + 1, nbits = c->nbits;
    int16_t root[MAXBITS];
    int16_t cells[MAXBITS];
    int n = 0;
#define FIND(x)                                                                  \
    ({                                                                           \
        int _r = (x);                                                            \
        while (root[_r] != _r) _r = root[_r] = root[root[_r]];                    \
        _r;                                                                      \
    })
    FOR_BITS(b, stones)
    {
        cells[n++] = (int16_t)b;
        root[b] = (int16_t)b;
        const int back[3] = {b - 1, b - width, b - up};
        for (int k = 0; k < 3; k++) {
            int x = back[k];
            if (x < 0 || !TEST(stones, x)) continue;
            int rx = FIND(x), rb = FIND(b);
            if (rx != rb) root[rx > rb ? rx : rb] = (int16_t)(rx < rb ? rx : rb);
        }
    }
    int16_t size[MAXBITS], touch[MAXBITS], edges[MAXBITS], tri[MAXBITS];
    for (int i = 0; i < n; i++) {
        int b = cells[i], r = FIND(b);
        if (r == b) size[r] = touch[r] = edges[r] = tri[r] = 0;
    }
    for (int i = 0; i < n; i++) {
        int b = cells[i], r = root[b] == b ? b : FIND(b);
        int border = TEST(c->border, b);
        int right = b + 1 < nbits && TEST(stones, b + 1);
        int above = b + width < nbits && TEST(stones, b + width);
        int diag = b + up < nbits && TEST(stones, b + up);
        size[r]++;
        touch[r] += border;
        edges[r] += right + above + diag + border;
        tri[r] += (diag && right) + (diag && above) + (right && TEST(c->pair_side, b)) +
                  (above && TEST(c->pair_up, b)) + (diag && TEST(c->pair_diag, b));
    }
    BB fragments = ZERO();
    for (int i = 0; i < n; i++) {
        int b = cells[i], r = FIND(b);
        int s = size[r], dividing = 0;
        if (s >= 3) dividing = (touch[r] ? 1 : 2) - (s + 1) + edges[r] - tri[r] > 0;
        if (!dividing) F(bb_set)(&fragments, b);
    }
#undef FIND
    return fragments;
}

/* Small boards grow groups quicker than they label them; big ones the other way. */
#if NW <= 3
#define FRAGMENTS fragments
#else
#define FRAGMENTS fragments_fast
#endif

/* partitions._verdict: the first scores and the winner after the tie-break (-1 draw). */
static int F(partitions_verdict)(const Ctx *c, BB white, BB black, int *first0, int *first1)
{
    BB wf = F(FRAGMENTS)(c, white), bf = F(FRAGMENTS)(c, black);
    int p0 = COUNT(bf), p1 = COUNT(wf);
    *first0 = p0;
    *first1 = p1;
    BB seen_w[MAXCHAIN], seen_b[MAXCHAIN];
    int seen = 0;
    seen_w[seen] = white;
    seen_b[seen++] = black;
    while (p0 == p1) {
        if (!ANY(OR(wf, bf))) return -1;
        BB nw = OR(XOR(white, wf), bf), nb = OR(XOR(black, bf), wf);
        for (int i = 0; i < seen; i++)
            if (EQ(seen_w[i], nw) && EQ(seen_b[i], nb)) return -1;
        if (seen == MAXCHAIN) return -1; /* never reached: chains are short */
        seen_w[seen] = nw;
        seen_b[seen++] = nb;
        white = nw;
        black = nb;
        wf = F(FRAGMENTS)(c, white);
        bf = F(FRAGMENTS)(c, black);
        p0 = COUNT(bf);
        p1 = COUNT(wf);
    }
    return p0 > p1 ? 0 : 1;
}

/* -- the common interface ---------------------------------------------------------------- */

static inline int F(turn_of)(const Ctx *c, const State *s)
{
    if (c->game == G_EGOTZI) return COUNT(OR(s->a, s->b)) & 1;
    return s->turn;
}

static int F(is_over)(const Ctx *c, const State *s)
{
    switch (c->game) {
    case G_EGOTZI:
    case G_PARTITIONS:
        return EQ(OR(s->a, s->b), c->board);
    default:
        return s->passes >= 2;
    }
}

/* Every legal move (any order); returns how many. */
static int F(legal_moves)(const Ctx *c, const State *s, int *out)
{
    int count = 0, n2 = c->ncells;
    if (F(is_over)(c, s)) return 0;
    switch (c->game) {
    case G_PETRIFY:
    case G_PILO: {
        BB empty = ANDNOT(c->board, OR(OR(s->a, s->b), s->c));
        FOR_BITS(b, empty) { out[count++] = c->dense[b]; }
        F(Found) found[4 * MAXLEVELS + 8];
        int total;
        int k = F(find_captures)(c, s, found, &total);
        BB theirs = s->turn ? s->a : s->b;
        BB passable = ANDNOT(c->board, OR(s->c, theirs));
        for (int i = 0; i < k; i++) {
            FOR_BITS(o, found[i].origins)
            {
                int t = F(slide_target)(o, found[i].step, passable);
                out[count++] = n2 + c->dense[o] * n2 + c->dense[t];
            }
        }
        if (!count) out[count++] = MOVE_PASS;
        if (s->swap) out[count++] = MOVE_SWAP;
        return count;
    }
    case G_EGOTZI: {
        BB empty = ANDNOT(c->board, OR(s->a, s->b));
        FOR_BITS(b, empty) { out[count++] = b; }
        if (s->swap) out[count++] = MOVE_SWAP;
        return count;
    }
    case G_LINAGE: {
        BB legal = F(linage_legal)(c, s->a);
        FOR_BITS(b, legal) { out[count++] = c->dense[b]; }
        out[count++] = MOVE_PASS;
        return count;
    }
    case G_PARTITIONS: {
        BB empty = ANDNOT(c->board, OR(s->a, s->b));
        FOR_BITS(b, empty) { out[count++] = c->dense[b]; }
        return count;
    }
    }
    return 0;
}

/* Play a legal move (no checks). */
static void F(apply)(const Ctx *c, State *s, int move)
{
    int n2 = c->ncells;
    switch (c->game) {
    case G_PETRIFY:
    case G_PILO:
        if (move == MOVE_PASS) {
            s->passes++;
            s->turn ^= 1;
            s->swap = 0;
            return;
        }
        if (move == MOVE_SWAP) {
            s->swap = 0;
            return;
        }
        s->swap = s->last == NO_COLOUR ? (int8_t)c->pie : 0;
        if (move < n2) {
            F(bb_set)(s->turn ? &s->b : &s->a, c->pad[move]);
        } else {
            int x = move - n2;
            F(slide_capture)(c, s, c->pad[x / n2], c->pad[x % n2], 0);
        }
        s->passes = 0;
        s->last = s->turn;
        s->turn ^= 1;
        return;
    case G_EGOTZI: {
        if (move == MOVE_SWAP) {
            s->swap = 0;
            return;
        }
        int was_empty = !ANY(OR(s->a, s->b));
        int moved[8];
        F(eg_place)(c, s, move, F(turn_of)(c, s), moved);
        s->swap = (int8_t)(c->pie && was_empty);
        return;
    }
    case G_LINAGE:
        if (move == MOVE_PASS)
            s->passes++;
        else {
            F(bb_clear)(&s->a, c->pad[move]);
            s->passes = 0;
        }
        s->turn ^= 1;
        return;
    case G_PARTITIONS:
        F(bb_set)(s->turn ? &s->b : &s->a, c->pad[move]);
        s->turn ^= 1;
        return;
    }
}

/* The scores by colour, komi included (a preview before the end). */
static void F(points)(const Ctx *c, const State *s, double *p0, double *p1)
{
    switch (c->game) {
    case G_PETRIFY:
    case G_PILO: {
        int a, b;
        F(patch_points)(c, s, &a, &b);
        *p0 = a;
        *p1 = b;
        return;
    }
    case G_EGOTZI:
        F(eg_points)(c, s, p0, p1);
        return;
    case G_LINAGE:
        F(linage_points)(c, s, p0, p1);
        return;
    case G_PARTITIONS: {
        int a, b;
        F(partitions_verdict)(c, s->a, s->b, &a, &b);
        *p0 = a;
        *p1 = b;
        return;
    }
    }
}

/* A finished game's winner (0, 1, or DRAW) and, in *margin2, its final margin: the
   first colour's points less the second's, komi included, in half points (komi is a
   whole or half number). Partitions' margin is that of its first scores, which a
   tie-break may decide against. */
static int F(final)(const Ctx *c, const State *s, int *margin2)
{
    double p0, p1;
    switch (c->game) {
    case G_PETRIFY:
    case G_PILO: {
        int a, b;
        F(patch_points)(c, s, &a, &b);
        *margin2 = 2 * (a - b);
        if (a != b) return a > b ? 0 : 1;
        if (s->last == NO_COLOUR) return DRAW;
        return 1 - s->last;
    }
    case G_EGOTZI:
        F(eg_points)(c, s, &p0, &p1);
        *margin2 = (int)lround(2.0 * (p0 - p1));
        if (p0 > p1) return 0;
        if (p1 > p0) return 1;
        if (!c->pie) return DRAW;
        return 1 - ((c->ncells - 1) & 1);
    case G_LINAGE:
        F(linage_points)(c, s, &p0, &p1);
        *margin2 = (int)lround(2.0 * (p0 - p1));
        if (p0 == p1) return DRAW;
        return p0 > p1 ? 0 : 1;
    case G_PARTITIONS: {
        int a, b;
        int w = F(partitions_verdict)(c, s->a, s->b, &a, &b);
        *margin2 = 2 * (a - b);
        return w < 0 ? DRAW : w;
    }
    }
    *margin2 = 0;
    return DRAW;
}

/* The winner of a finished game: 0, 1, or DRAW. */
static int F(winner)(const Ctx *c, const State *s)
{
    int margin2;
    return F(final)(c, s, &margin2);
}
#undef FRAGMENTS

/* How many legal moves there are (the exact solver stops where there are many). */
static int F(count_moves)(const Ctx *c, const State *s)
{
    int moves[MAXMOVES];
    return F(legal_moves)(c, s, moves);
}
