/* One instance of the compiled core for NW-word bitboards: core.c includes this file once
   per word count, with NW and F(name) (which suffixes every name) defined. */

#define BB F(bbt)
#define Ctx F(ctx)
#define State F(state)

#include "bitboard.h"
#include "rules.h"
#include "playout.h"
#include "search.h"

/* Load a state from the Python game's own state (bitboards in its layouts). */
static void F(state_load)(Ctx *c, State *s, uint64_t words[4][6], uint64_t lv[MAXLEVELS][6],
                          int turn, int passes, int last, int swap)
{
    BB boards[4];
    for (int i = 0; i < 4; i++) memcpy(boards[i].w, words[i], sizeof boards[i].w);
    memset(s, 0, sizeof *s);
    for (int h = 0; h < MAXLEVELS; h++) memcpy(s->lv[h].w, lv[h], sizeof s->lv[h].w);
    s->turn = (int8_t)turn;
    s->passes = (int8_t)passes;
    s->last = (int8_t)last;
    s->swap = (int8_t)swap;
    switch (c->game) {
    case G_PETRIFY:
        s->a = boards[0];
        s->b = boards[1];
        s->c = boards[2];
        s->d = F(formation_mask)(s->c, c->stride, c->board);
        break;
    case G_PILO:
        s->a = boards[0];
        s->b = boards[1];
        s->c = boards[2];
        s->d = boards[3];
        break;
    case G_EGOTZI:
        s->a = boards[0];
        s->b = boards[1];
        break;
    case G_LINAGE:
        s->a = boards[0];
        break;
    case G_PARTITIONS:
        /* Python keeps Partitions in the dense layout; the C rules use the padded one. */
        s->a = ZERO();
        s->b = ZERO();
        for (int cell = 0; cell < c->ncells; cell++) {
            if (TEST(boards[0], cell)) F(bb_set)(&s->a, c->pad[cell]);
            if (TEST(boards[1], cell)) F(bb_set)(&s->b, c->pad[cell]);
        }
        break;
    }
}

static int F(ctx_slots)(const Ctx *c) { return c->slots; }

#undef AND
#undef OR
#undef XOR
#undef ANDNOT
#undef ANY
#undef EQ
#undef COUNT
#undef TEST
#undef SHL
#undef SHR
#undef ZERO
#undef BIT
#undef LOW
#undef HIGH
#undef LOWBIT
#undef BB
#undef Ctx
#undef State
