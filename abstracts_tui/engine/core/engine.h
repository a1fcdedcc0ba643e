/* The compiled core without Python: the five games' rules on bitboards (bitboard.h,
 * rules.h, playout.h), the Monte Carlo tree search of one tree shared by every thread
 * (search.h), and a search's runs (below). core.c gives them to Python; a C program may
 * include this file alone (the tests' native check of the tree runs so, also built for
 * Windows). */

#ifndef ABSTRACTS_ENGINE_H
#define ABSTRACTS_ENGINE_H

#include <math.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "platform.h"

#define G_PETRIFY 0
#define G_PILO 1
#define G_EGOTZI 2
#define G_LINAGE 3
#define G_PARTITIONS 4

#define MOVE_PASS (-1)
#define MOVE_SWAP (-2)
#define NO_COLOUR (-1)
#define DRAW 2
#define PROVEN_DRAW 3

/* A result (a colour, or DRAW) and a proof (1 + colour, or PROVEN_DRAW) as the other
   colour's person sees them: across the pie rule's swap (see search.h). */
static inline int flip_result(int r) { return r == DRAW ? DRAW : 1 - r; }
static inline int flip_proof(int p) { return p == PROVEN_DRAW ? PROVEN_DRAW : 3 - p; }

#define MAXBITS 384   /* Linage 19 and Partitions 10 take 380 bits */
#define MAXCELLS 384
#define MAXLEVELS 10  /* Pilo 10x10: stacks up to height 7, levels up to 8 */
#define MAXCHAIN 256  /* Partitions' tie-break chain (a few steps in practice) */
#define MAXREGIONS 192
#define MAXPLIES 2048
#define MAXPATH 1024
#define MAXMOVES 4096
#define MAXTHREADS 64
#define EXACT_MOVES 6       /* the exact solver takes nodes with this many moves or fewer */
#define EXACT_BUDGET 5000   /* and gives up past this many positions */

/* -- random numbers: xoshiro256**, seeded by splitmix64 ------------------------------ */

typedef struct {
    uint64_t s[4];
} Rng;

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static void rng_seed(Rng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++) r->s[i] = splitmix64(&seed);
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t rng_next(Rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

/* A uniform integer in [0, n) (Lemire's multiply-shift; its bias is below 2^-32 * n). */
static inline uint32_t rng_below(Rng *r, uint32_t n)
{
    return (uint32_t)(((rng_next(r) >> 32) * (uint64_t)n) >> 32);
}


/* -- the tree ---------------------------------------------------------------------------- */

/* One tree, searched by every thread at once (tree parallelisation, as in Fuego, MoHex,
   Leela Zero and KataGo): statistics are atomic counters changed without locks; a node
   is made by the one thread that claims its edge (MAKING) and published whole by a
   release store; the others wait the moment it takes and walk on into it. */

#define NO_CHILD (-1)
#define MAKING (-2) /* an edge's child, or a node's AMAF table, being made by some thread */
#define NO_AMAF (-1)

typedef struct {
    int32_t move;
    atomic_uint visits; /* counted on the way down, its walks under way among them */
    atomic_uint wins2;  /* results in half points for the colour to move at the parent */
    atomic_int child;   /* its node, NO_CHILD or MAKING */
    atomic_uchar proven; /* 0 unknown, 1 + winner colour, 3 a draw */
    atomic_ushort pending; /* walks through it under way (several threads; one: 0) */
} Edge;

/* Each walk under way through a move counts as this many lost playouts in its value. */
#define VIRTUAL_LOSS 1.0

typedef struct {
    int32_t edges; /* the first of its edges */
    atomic_int amaf;    /* its AMAF table, NO_AMAF before amaf_from playouts, or MAKING */
    atomic_uint total;  /* walks that went on through one of its edges */
    atomic_uint ended;  /* walks that ended here: the node proven, or the game over */
    uint16_t nedges;
    int8_t turn;
    int8_t pie;          /* one of its moves is the pie rule's swap */
    atomic_uchar solved; /* as Edge.proven */
} Node;

/* An AMAF entry: playouts in the high 32 bits, wins in half points for the key's colour
   in the low 32, so that one atomic addition updates both. */
typedef atomic_ullong Amaf;
#define AMAF_PLAYOUT ((uint64_t)1 << 32)

typedef struct {
    int grave, ref, amaf_from, solver;
    double bias, exploration;
} Params;

typedef struct {
    /* Read at every step of every walk, written only between runs. */
    Node *nodes;
    Edge *edges;
    Amaf *amaf;
    int64_t cap_nodes, cap_edges, cap_amaf, table; /* pools' sizes; entries per table */
    uint64_t target; /* claimed stops here (0: no playout budget) */
    int exact;       /* whether new nodes with few moves are solved exactly */
    int single;      /* searched by one thread: the AMAF tables take plain additions */
    void *root;      /* the root State */
    atomic_int root_solved;
    /* Written by the threads as they go, each group on cache lines of its own: a line
       that one core writes is taken from the others, and the fields above are read all
       the time. */
    char apart1[64];
    atomic_llong nnodes, nedges, namaf; /* the pools' items in use */
    atomic_int full; /* a node did not fit: no more are made this run */
    char apart2[64];
    atomic_ullong claimed; /* iterations claimed by the threads, over every run */
    char apart3[64];
} Tree;

/* What each thread has of its own: its random numbers and the scratch of one playout. */
typedef struct {
    Rng rng;
    uint32_t *stamp;
    uint32_t iter;
    uint64_t playouts;
    uint64_t answered; /* walks of this run a proof answered, not yet told */
    atomic_ullong met; /* walks that took a move below the root another walk was on */
    uint64_t *held;   /* additions to the root's AMAF table not yet told (several threads) */
    int held_for;     /* playouts since they were last told */
    atomic_llong *scores; /* per root move: [2i] the final margins of its playouts for the
                             person to move at the root, summed in half points, [2i + 1]
                             those playouts (written by this thread alone) */
    int played_ply[MAXPLIES * 2], played_key[MAXPLIES * 2];
    int keys[MAXPLIES * 2];
} Worker;

#define PLAYOUTS_TOLD 64 /* a power of two */

typedef struct {
    atomic_int stop;
    atomic_ullong playouts; /* walks, over every run (what a playout budget counts) */
    atomic_ullong answered; /* walks that a proof answered without a playout */
    double deadline;
} Shared;

static inline long long load_ll(atomic_llong *a) { return atomic_load_explicit(a, memory_order_relaxed); }
static inline void store_ll(atomic_llong *a, long long v) { atomic_store_explicit(a, v, memory_order_relaxed); }
static inline unsigned load_u32(const atomic_uint *a)
{
    return atomic_load_explicit((atomic_uint *)a, memory_order_relaxed);
}
static inline void store_u32(atomic_uint *a, unsigned v) { atomic_store_explicit(a, v, memory_order_relaxed); }

static inline void amaf_add(Amaf *a, uint64_t x, int single)
{
    if (single)
        atomic_store_explicit(a, atomic_load_explicit(a, memory_order_relaxed) + x, memory_order_relaxed);
    else
        atomic_fetch_add_explicit(a, x, memory_order_relaxed);
}

/* What a selection picks (search.h): the best of the moves not proven, and only where
   there is none, the best of those proven a draw (see select_grave). */
typedef struct {
    double best, best_draw;
    int pick, draw_pick;
} Choice;

#define NO_CHOICE {-1.0, -1.0, -1, -1}

static inline void consider(Choice *ch, int i, double value, int draw)
{
    if (draw) {
        if (value > ch->best_draw) {
            ch->best_draw = value;
            ch->draw_pick = i;
        }
    } else if (value > ch->best) {
        ch->best = value;
        ch->pick = i;
    }
}

static inline int chosen(const Choice *ch)
{
    return ch->pick >= 0 ? ch->pick : ch->draw_pick >= 0 ? ch->draw_pick : 0;
}

/* With several threads the root's AMAF table, which every playout adds to at nearly
   every entry, would pass its cache lines between the cores at every playout; each
   thread holds its additions and adds them every HOLD_PLAYOUTS playouts (and at the end
   of a run) instead, so that the table the threads read lags by at most that many of
   each other thread's playouts. */
#define HOLD_PLAYOUTS 16

static void tell_held(Tree *t, Worker *w)
{
    w->held_for = 0;
    if (!w->held) return;
    int root = atomic_load_explicit(&t->nodes[0].amaf, memory_order_acquire);
    Amaf *table = root >= 0 ? &t->amaf[(int64_t)root * t->table] : NULL;
    for (int64_t i = 0; i < t->table; i++) {
        if (!w->held[i]) continue;
        if (table) atomic_fetch_add_explicit(&table[i], w->held[i], memory_order_relaxed);
        w->held[i] = 0;
    }
}

/* One playout's addition `x` to entry `key` of a node's AMAF table: held by the thread
   where `table` is NULL (the root's, with several threads), else added to the table. */
static inline void amaf_note(Worker *w, Amaf *table, int key, uint64_t x, int single)
{
    if (table)
        amaf_add(&table[key], x, single);
    else
        w->held[key] += x;
}

/* 1 / sqrt(n + 1) for the visit counts selection meets most: a look-up instead of a
   square root and a division per move per step. */
#define INV_SQRT_SIZE 8192
static double inv_sqrt_table[INV_SQRT_SIZE];

static inline double inv_sqrt1(uint32_t n)
{
    return n < INV_SQRT_SIZE ? inv_sqrt_table[n] : 1.0 / sqrt((double)n + 1.0);
}

static int tree_amaf(Tree *t)
{
    long long old = load_ll(&t->namaf);
    do {
        if (old >= t->cap_amaf) return -1;
    } while (!atomic_compare_exchange_weak(&t->namaf, &old, old + 1));
    return (int)old;
}


/* -- one instance of bitboards, rules, playouts and search per word count --------------- */

#define CAT2(a, b) a##_##b
#define CAT(a, b) CAT2(a, b)

#define NW 2
#define F(name) CAT(name, 2)
#include "instance.h"
#undef NW
#undef F
#define NW 3
#define F(name) CAT(name, 3)
#include "instance.h"
#undef NW
#undef F
#define NW 4
#define F(name) CAT(name, 4)
#include "instance.h"
#undef NW
#undef F
#define NW 6
#define F(name) CAT(name, 6)
#include "instance.h"
#undef NW
#undef F

static int words_for(int bits)
{
    int w = (bits + 63) / 64;
    if (w <= 2) return 2;
    if (w <= 3) return 3;
    if (w <= 4) return 4;
    return 6;
}

/* Dispatch a call on the word count: DISPATCH(nw, name, (args)) -> name_NW args. */
#define DISPATCH(nw, name, args)                                                 \
    ((nw) == 2 ? CAT(name, 2) args                                               \
     : (nw) == 3 ? CAT(name, 3) args                                             \
     : (nw) == 4 ? CAT(name, 4) args                                             \
                 : CAT(name, 6) args)

static size_t ctx_size(int nw)
{
    return nw == 2 ? sizeof(ctx_2) : nw == 3 ? sizeof(ctx_3) : nw == 4 ? sizeof(ctx_4) : sizeof(ctx_6);
}

static size_t state_size(int nw)
{
    return nw == 2   ? sizeof(state_2)
           : nw == 3 ? sizeof(state_3)
           : nw == 4 ? sizeof(state_4)
                     : sizeof(state_6);
}

static int game_bits(int game, int size)
{
    switch (game) {
    case G_PETRIFY:
    case G_PILO:
        return (size + 2) * (size + 3);
    case G_EGOTZI:
        return size * size;
    case G_LINAGE:
        return size * (size + 1);
    case G_PARTITIONS:
        return (2 * size - 1) * 2 * size;
    }
    return 0;
}

/* -- one search: its tree, its threads' workers, and its runs -------------------------- */

typedef struct {
    int nw;    /* the bitboards' word count */
    void *ctx; /* the game's, read-only: whoever made the search keeps it alive */
    Params params;
    Tree tree;
    int nworkers;
    Worker *workers;
    Shared shared;
    int running;
    double seconds;
    double run_start; /* of the run under way, so that `seconds` counts it while it lasts */
    int64_t max_bytes;
} Search;

typedef struct {
    Search *s;
    int index;
} Job;

/* What the first search of a process needs made once (repeating it is harmless). */
static void engine_init(void)
{
    for (int i = 0; i < INV_SQRT_SIZE; i++) inv_sqrt_table[i] = 1.0 / sqrt((double)i + 1.0);
}

static void search_free(Search *s)
{
    free(s->tree.nodes);
    free(s->tree.edges);
    free(s->tree.amaf);
    free(s->tree.root);
    s->tree.nodes = NULL;
    s->tree.edges = NULL;
    s->tree.amaf = NULL;
    s->tree.root = NULL;
    if (s->workers) {
        for (int i = 0; i < s->nworkers; i++) {
            free(s->workers[i].stamp);
            free(s->workers[i].held);
            free(s->workers[i].scores);
        }
        free(s->workers);
        s->workers = NULL;
    }
}

/* Make a search of the position `root` (a State of the word count nw) by `threads`
   threads (1 to MAXTHREADS), its tree within max_bytes. Returns 0, or -1 when the
   memory could not be had (search_free frees what was made). */
static int search_make(Search *s, void *ctx, int nw, const void *root, uint64_t seed, int threads,
                       Params params, int64_t max_bytes, int exact)
{
    s->nw = nw;
    s->ctx = ctx;
    s->params = params;
    s->max_bytes = max_bytes;
    s->nworkers = threads;
    s->running = 0;
    s->seconds = 0.0;
    atomic_store(&s->shared.stop, 0);
    atomic_store(&s->shared.playouts, 0);
    atomic_store(&s->shared.answered, 0);
    s->workers = calloc((size_t)threads, sizeof(Worker));
    if (!s->workers) return -1;
    int slots = DISPATCH(nw, ctx_slots, (ctx));
    int64_t table_bytes = (int64_t)slots * 2 * (int64_t)sizeof(Amaf);
    Tree *t = &s->tree;
    memset(t, 0, sizeof *t);
    /* The memory bound: nodes a tenth, edges half, AMAF tables the rest (two-fifths). */
    t->cap_nodes = max_bytes / 10 / (int64_t)sizeof(Node);
    t->cap_edges = max_bytes / 2 / (int64_t)sizeof(Edge);
    t->cap_amaf = max_bytes * 2 / 5 / table_bytes;
    if (t->cap_nodes < 1) t->cap_nodes = 1;
    if (t->cap_edges < MAXMOVES) t->cap_edges = MAXMOVES;
    if (t->cap_amaf < 1) t->cap_amaf = 1;
    /* calloc: the pages are only taken from the system as the tree grows into them */
    t->nodes = calloc((size_t)t->cap_nodes, sizeof(Node));
    t->edges = calloc((size_t)t->cap_edges, sizeof(Edge));
    t->amaf = calloc((size_t)(t->cap_amaf * table_bytes / (int64_t)sizeof(Amaf)), sizeof(Amaf));
    if (!t->nodes || !t->edges || !t->amaf) return -1;
    t->exact = exact && params.solver;
    t->single = threads == 1;
    for (int i = 0; i < threads; i++) {
        Worker *w = &s->workers[i];
        w->stamp = calloc((size_t)slots * 2, sizeof(uint32_t));
        w->held = threads > 1 ? calloc((size_t)slots * 2, sizeof(uint64_t)) : NULL;
        w->scores = calloc((size_t)MAXMOVES * 2, sizeof(atomic_llong));
        if (!w->stamp || (threads > 1 && !w->held) || !w->scores) return -1;
        rng_seed(&w->rng, seed + 0x9e3779b97f4a7c15ULL * (uint64_t)i);
    }
    return DISPATCH(nw, tree_init, (ctx, t, &s->workers[0], root)) < 0 ? -1 : 0;
}

/* Whether the tree has its root (not, after the memory ran out). */
static int search_ready(Search *s) { return s->tree.nodes && load_ll(&s->tree.nnodes) > 0; }

/* A run, in three steps so that whoever calls it may let other work go on during the
   second: search_begin sets its budget, the playouts (0: no limit) or the seconds (0: no
   limit); search_go searches with every thread until the budget is spent, the root is
   proven or shared.stop is set; search_end counts its time. */
static void search_begin(Search *s, uint64_t playouts, double seconds)
{
    s->running = 1;
    Tree *t = &s->tree;
    uint64_t done = atomic_load(&s->shared.playouts);
    atomic_store(&t->claimed, done);
    t->target = playouts ? done + playouts : 0;
    s->run_start = now_seconds();
    s->shared.deadline = seconds > 0.0 ? s->run_start + seconds : 0.0;
}

static THREAD_RESULT worker(void *arg)
{
    Job *job = arg;
    Search *s = job->s;
    DISPATCH(s->nw, run_tree, (s->ctx, &s->params, &s->tree, &s->workers[job->index], &s->shared));
    return THREAD_DONE;
}

static void search_go(Search *s)
{
    thread_t threads[MAXTHREADS];
    Job jobs[MAXTHREADS];
    int started = 0;
    for (int i = 1; i < s->nworkers; i++) {
        jobs[i].s = s;
        jobs[i].index = i;
        if (thread_start(&threads[i], worker, &jobs[i]) != 0) break;
        started = i;
    }
    jobs[0].s = s;
    jobs[0].index = 0;
    worker(&jobs[0]);
    for (int i = 1; i <= started; i++) thread_join(threads[i]);
}

static void search_end(Search *s)
{
    s->seconds += now_seconds() - s->run_start;
    atomic_store(&s->shared.stop, 0);
    s->running = 0;
}

/* The expected score of the root's move `edge` (its index among the root's edges): the
   final margins of the playouts through it summed over the threads, in half points for
   the person to move at the root, and how many playouts they are. Read while a run goes
   on, the two may be a playout apart. */
static void search_score(Search *s, int edge, long long *margin2, unsigned long long *playouts)
{
    long long sum = 0, count = 0;
    for (int i = 0; i < s->nworkers; i++) {
        atomic_llong *scores = s->workers[i].scores;
        sum += atomic_load_explicit(&scores[2 * edge], memory_order_relaxed);
        count += atomic_load_explicit(&scores[2 * edge + 1], memory_order_relaxed);
    }
    *margin2 = sum;
    *playouts = (unsigned long long)count;
}

/* The root moved (tree reuse): the scores of its moves start again, since only the
   root's moves keep them. */
static void search_clear_scores(Search *s)
{
    for (int i = 0; i < s->nworkers; i++)
        for (int j = 0; j < MAXMOVES * 2; j++)
            atomic_store_explicit(&s->workers[i].scores[j], 0, memory_order_relaxed);
}

/* The memory the tree holds now: nodes, edges and AMAF tables in use. */
static long long search_bytes(Search *s)
{
    Tree *t = &s->tree;
    return load_ll(&t->nnodes) * (int64_t)sizeof(Node) + load_ll(&t->nedges) * (int64_t)sizeof(Edge) +
           load_ll(&t->namaf) * t->table * (int64_t)sizeof(Amaf);
}

#endif /* ABSTRACTS_ENGINE_H */
