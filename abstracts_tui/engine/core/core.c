/* abstracts_tui.engine._core: the five games' rules and the Monte Carlo tree search in C.
 *
 * Python keeps the readable reference rules (abstracts_tui/rules/); this module mirrors
 * them on fixed-size multi-word bitboards (bitboard.h, rules.h, playout.h) and runs the
 * whole search iteration (selection, expansion, playout, outcome, update) without the
 * interpreter (search.h), on one tree shared by every thread, with the GIL released.
 *
 * Python sees two types: Position (a game state built from the Python game's own state:
 * legal moves, play, scores, winner; for the differential test and for building a
 * search's root) and Searcher (a search of one tree by several threads).
 */

/* The stable ABI of Python 3.11 and later (setup.py builds an abi3 extension): one
   build serves every Python from 3.11, so the types are made from specs, and only the
   functions of the limited API are used. */
#ifndef Py_LIMITED_API
#define Py_LIMITED_API 0x030B0000
#endif
#define PY_SSIZE_T_CLEAN
#include <Python.h>

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
    atomic_uint visits; /* counted on the way down, so a walk under way is a loss meanwhile */
    atomic_uint wins2;  /* results in half points for the colour to move at the parent */
    atomic_int child;   /* its node, NO_CHILD or MAKING */
    atomic_uchar proven; /* 0 unknown, 1 + winner colour, 3 a draw */
} Edge;

typedef struct {
    int32_t edges; /* the first of its edges */
    atomic_int amaf;    /* its AMAF table, NO_AMAF before amaf_from playouts, or MAKING */
    atomic_uint total;  /* walks that went on through one of its edges */
    atomic_uint ended;  /* walks that ended here: the node proven, or the game over */
    uint16_t nedges;
    int8_t turn;
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
    uint64_t *held;   /* additions to the root's AMAF table not yet told (several threads) */
    int held_for;     /* playouts since they were last told */
    int played_ply[MAXPLIES * 2], played_key[MAXPLIES * 2];
    int keys[MAXPLIES * 2];
} Worker;

#define PLAYOUTS_TOLD 64 /* a power of two */

typedef struct {
    atomic_int stop;
    atomic_ullong playouts;
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

/* ======================================================================================= */
/* Python: Position                                                                        */

typedef struct {
    PyObject_HEAD int nw;
    void *ctx; /* shared, read-only once built: positions copied from this one keep it */
    PyObject *owner; /* the Position that owns ctx, or NULL if this one does */
    void *state;
} Position;

static PyTypeObject *PositionType; /* made from its spec at import */

static int read_board(PyObject *bytes, void *dst, int nw)
{
    char *data;
    Py_ssize_t len;
    if (PyBytes_AsStringAndSize(bytes, &data, &len) < 0) return -1;
    memset(dst, 0, (size_t)nw * 8);
    for (Py_ssize_t i = nw * 8; i < len; i++)
        if (data[i]) {
            PyErr_SetString(PyExc_ValueError, "a bitboard does not fit this board");
            return -1;
        }
    memcpy(dst, data, (size_t)(len < nw * 8 ? len : nw * 8));
    return 0;
}

/* Position(game, size, pie, komi, boards, levels, turn, passes, last, swap)
   boards: up to 4 bytes objects (the state's bitboards in the Python layout, little
   endian); levels: Pilo's stacks by height (bytes), or (). */
static int Position_init(Position *self, PyObject *args, PyObject *kw)
{
    int game, size, pie, turn, passes, last, swap;
    double komi;
    PyObject *boards, *levels;
    if (!PyArg_ParseTuple(args, "iiidO!O!iiii", &game, &size, &pie, &komi, &PyTuple_Type, &boards,
                          &PyTuple_Type, &levels, &turn, &passes, &last, &swap))
        return -1;
    if (game < 0 || game > 4 || size < 2 || game_bits(game, size) > MAXBITS ||
        (game == G_EGOTZI && size > 9) || PyTuple_Size(boards) > 4 ||
        PyTuple_Size(levels) > MAXLEVELS) {
        PyErr_SetString(PyExc_ValueError, "no such game or board size in the compiled core");
        return -1;
    }
    int nw = words_for(game_bits(game, size));
    self->nw = nw;
    self->ctx = calloc(1, ctx_size(nw));
    self->state = calloc(1, state_size(nw));
    if (!self->ctx || !self->state) {
        PyErr_NoMemory();
        return -1;
    }
    DISPATCH(nw, ctx_init, ((void *)self->ctx, game, size, pie, komi));
    uint64_t words[4][6];
    memset(words, 0, sizeof words);
    for (Py_ssize_t i = 0; i < PyTuple_Size(boards); i++)
        if (read_board(PyTuple_GetItem(boards, i), words[i], nw) < 0) return -1;
    uint64_t lv[MAXLEVELS][6];
    memset(lv, 0, sizeof lv);
    for (Py_ssize_t i = 0; i < PyTuple_Size(levels); i++)
        if (read_board(PyTuple_GetItem(levels, i), lv[i], nw) < 0) return -1;
    DISPATCH(nw, state_load, ((void *)self->ctx, (void *)self->state, words, lv, turn, passes, last, swap));
    return 0;
}

/* A type made from a spec is an object of its own: its instances hold a reference. */
static void free_instance(PyObject *self)
{
    PyTypeObject *type = Py_TYPE(self);
    freefunc release = (freefunc)PyType_GetSlot(type, Py_tp_free);
    release(self);
    Py_DECREF(type);
}

static void Position_dealloc(Position *self)
{
    if (self->owner)
        Py_DECREF(self->owner);
    else
        free(self->ctx);
    free(self->state);
    free_instance((PyObject *)self);
}

static PyObject *Position_legal_moves(Position *self, PyObject *unused)
{
    int moves[MAXMOVES];
    int count = DISPATCH(self->nw, legal_moves, ((void *)self->ctx, (void *)self->state, moves));
    PyObject *list = PyList_New(count);
    if (!list) return NULL;
    for (int i = 0; i < count; i++) PyList_SetItem(list, i, PyLong_FromLong(moves[i]));
    return list;
}

static PyObject *Position_play(Position *self, PyObject *arg)
{
    long move = PyLong_AsLong(arg);
    if (move == -1 && PyErr_Occurred()) return NULL;
    int moves[MAXMOVES];
    int count = DISPATCH(self->nw, legal_moves, ((void *)self->ctx, (void *)self->state, moves));
    for (int i = 0; i < count; i++)
        if (moves[i] == move) {
            DISPATCH(self->nw, apply, ((void *)self->ctx, (void *)self->state, (int)move));
            Py_RETURN_NONE;
        }
    PyErr_Format(PyExc_ValueError, "%ld is not a legal move here", move);
    return NULL;
}

static PyObject *Position_turn(Position *self, PyObject *unused)
{
    return PyLong_FromLong(DISPATCH(self->nw, turn_of, ((void *)self->ctx, (void *)self->state)));
}

static PyObject *Position_is_over(Position *self, PyObject *unused)
{
    return PyBool_FromLong(DISPATCH(self->nw, is_over, ((void *)self->ctx, (void *)self->state)));
}

/* The winner: 0, 1, None for a draw; -1 while the game goes on. */
static PyObject *Position_winner(Position *self, PyObject *unused)
{
    if (!DISPATCH(self->nw, is_over, ((void *)self->ctx, (void *)self->state))) return PyLong_FromLong(-1);
    int w = DISPATCH(self->nw, winner, ((void *)self->ctx, (void *)self->state));
    if (w == DRAW) Py_RETURN_NONE;
    return PyLong_FromLong(w);
}

static PyObject *Position_points(Position *self, PyObject *unused)
{
    double p0 = 0.0, p1 = 0.0;
    DISPATCH(self->nw, points, ((void *)self->ctx, (void *)self->state, &p0, &p1));
    return Py_BuildValue("(dd)", p0, p1);
}

/* A random game to the end (for tests and the benchmark): the moves it played. */
static PyObject *Position_playout(Position *self, PyObject *arg)
{
    unsigned long long seed = PyLong_AsUnsignedLongLongMask(arg);
    if (PyErr_Occurred()) return NULL;
    Rng rng;
    rng_seed(&rng, seed);
    int *keys = malloc(sizeof(int) * MAXPLIES * 4);
    if (!keys) return PyErr_NoMemory();
    int *moves = keys + MAXPLIES * 2;
    int n = DISPATCH(self->nw, playout, ((void *)self->ctx, (void *)self->state, &rng, keys, moves));
    PyObject *list = PyList_New(n);
    for (int i = 0; list && i < n; i++) PyList_SetItem(list, i, PyLong_FromLong(moves[i]));
    free(keys);
    return list;
}

static PyObject *Position_copy(Position *self, PyObject *unused)
{
    Position *other = PyObject_New(Position, PositionType);
    if (!other) return NULL;
    other->nw = self->nw;
    other->ctx = self->ctx;
    other->owner = self->owner ? self->owner : (PyObject *)self;
    Py_INCREF(other->owner);
    other->state = malloc(state_size(self->nw));
    if (!other->state) {
        Py_DECREF(other);
        return PyErr_NoMemory();
    }
    memcpy(other->state, self->state, state_size(self->nw));
    return (PyObject *)other;
}

static PyMethodDef Position_methods[] = {
    {"legal_moves", (PyCFunction)Position_legal_moves, METH_NOARGS, "Every legal move (any order)."},
    {"play", (PyCFunction)Position_play, METH_O, "Play a legal move; ValueError if it is not one."},
    {"turn", (PyCFunction)Position_turn, METH_NOARGS, "The colour to move."},
    {"is_over", (PyCFunction)Position_is_over, METH_NOARGS, "Whether the game has ended."},
    {"winner", (PyCFunction)Position_winner, METH_NOARGS, "0, 1, None (draw); -1 before the end."},
    {"points", (PyCFunction)Position_points, METH_NOARGS, "The scores, komi included."},
    {"playout", (PyCFunction)Position_playout, METH_O, "Play random moves to the end (seed); the moves."},
    {"copy", (PyCFunction)Position_copy, METH_NOARGS, "An independent copy."},
    {NULL, NULL, 0, NULL},
};

static PyType_Slot Position_slots[] = {
    {Py_tp_doc, (void *)"A game position in the compiled rules."},
    {Py_tp_new, (void *)PyType_GenericNew},
    {Py_tp_init, (void *)Position_init},
    {Py_tp_dealloc, (void *)Position_dealloc},
    {Py_tp_methods, Position_methods},
    {0, NULL},
};

static PyType_Spec Position_spec = {
    .name = "abstracts_tui.engine._core.Position",
    .basicsize = sizeof(Position),
    .flags = Py_TPFLAGS_DEFAULT,
    .slots = Position_slots,
};

/* ======================================================================================= */
/* Python: Searcher                                                                        */

typedef struct {
    PyObject_HEAD int nw;
    PyObject *position; /* keeps the ctx alive */
    void *ctx;
    Params params;
    Tree tree;
    int nworkers;
    Worker *workers;
    Shared shared;
    int running;
    double seconds;
    double run_start; /* of the run under way, so that `seconds` counts it while it lasts */
    int64_t max_bytes;
} Searcher;

typedef struct {
    Searcher *s;
    int index;
} Job;

static void Searcher_free_tree(Searcher *self)
{
    free(self->tree.nodes);
    free(self->tree.edges);
    free(self->tree.amaf);
    free(self->tree.root);
    self->tree.nodes = NULL;
    self->tree.edges = NULL;
    self->tree.amaf = NULL;
    self->tree.root = NULL;
    if (self->workers) {
        for (int i = 0; i < self->nworkers; i++) {
            free(self->workers[i].stamp);
            free(self->workers[i].held);
        }
        free(self->workers);
        self->workers = NULL;
    }
}

static void Searcher_dealloc(Searcher *self)
{
    Searcher_free_tree(self);
    Py_XDECREF(self->position);
    free_instance((PyObject *)self);
}

/* Searcher(position, seed, threads, grave, ref, bias, exploration, amaf_from, max_bytes,
   solver, exact) */
static int Searcher_init(Searcher *self, PyObject *args, PyObject *kw)
{
    PyObject *pos;
    unsigned long long seed;
    int threads, grave, ref, amaf_from;
    double bias, exploration;
    long long max_bytes;
    int solver = 1, exact = 1;
    if (!PyArg_ParseTuple(args, "O!KiiiddiL|ii", PositionType, &pos, &seed, &threads, &grave,
                          &ref, &bias, &exploration, &amaf_from, &max_bytes, &solver, &exact))
        return -1;
    if (threads < 1 || threads > MAXTHREADS) {
        PyErr_SetString(PyExc_ValueError, "threads must be between 1 and 64");
        return -1;
    }
    if (self->position) { /* __init__ called again: start afresh */
        Searcher_free_tree(self);
        Py_CLEAR(self->position);
    }
    Position *p = (Position *)pos;
    Py_INCREF(pos);
    self->position = pos;
    self->nw = p->nw;
    self->ctx = p->ctx;
    self->params.grave = grave;
    self->params.ref = ref;
    self->params.bias = bias;
    self->params.exploration = exploration;
    self->params.amaf_from = amaf_from;
    self->params.solver = solver;
    self->max_bytes = max_bytes;
    self->nworkers = threads;
    atomic_store(&self->shared.stop, 0);
    atomic_store(&self->shared.playouts, 0);
    self->workers = calloc((size_t)threads, sizeof(Worker));
    if (!self->workers) {
        PyErr_NoMemory();
        return -1;
    }
    int slots = DISPATCH(self->nw, ctx_slots, ((void *)self->ctx));
    int64_t table_bytes = (int64_t)slots * 2 * (int64_t)sizeof(Amaf);
    Tree *t = &self->tree;
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
    if (!t->nodes || !t->edges || !t->amaf) {
        PyErr_NoMemory();
        return -1;
    }
    t->exact = exact && solver;
    t->single = threads == 1;
    for (int i = 0; i < threads; i++) {
        Worker *w = &self->workers[i];
        w->stamp = calloc((size_t)slots * 2, sizeof(uint32_t));
        w->held = threads > 1 ? calloc((size_t)slots * 2, sizeof(uint64_t)) : NULL;
        if (!w->stamp || (threads > 1 && !w->held)) {
            PyErr_NoMemory();
            return -1;
        }
        rng_seed(&w->rng, seed + 0x9e3779b97f4a7c15ULL * (uint64_t)i);
    }
    if (DISPATCH(self->nw, tree_init, ((void *)self->ctx, t, &self->workers[0], p->state)) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static THREAD_RESULT worker(void *arg)
{
    Job *job = arg;
    Searcher *s = job->s;
    DISPATCH(s->nw, run_tree, ((void *)s->ctx, &s->params, &s->tree, &s->workers[job->index], &s->shared));
    return THREAD_DONE;
}

static int Searcher_ready(Searcher *self)
{
    return self->tree.nodes && load_ll(&self->tree.nnodes) > 0;
}

/* Whether a run is under way (a RuntimeError set): the tree may not be read or changed. */
static int Searcher_busy(Searcher *self)
{
    if (!self->running) return 0;
    PyErr_SetString(PyExc_RuntimeError, "this search is running");
    return 1;
}

/* run(playouts, seconds): search until the playouts (0: no limit) or the seconds (0: no
   limit) are spent, or stop() is called. The GIL is released meanwhile. */
static PyObject *Searcher_run(Searcher *self, PyObject *args)
{
    unsigned long long playouts;
    double seconds;
    if (!PyArg_ParseTuple(args, "Kd", &playouts, &seconds)) return NULL;
    if (self->running) {
        PyErr_SetString(PyExc_RuntimeError, "this search is already running");
        return NULL;
    }
    if (!self->workers) {
        PyErr_SetString(PyExc_RuntimeError, "this search was not made");
        return NULL;
    }
    if (!Searcher_ready(self)) return PyErr_NoMemory();
    self->running = 1;
    Tree *t = &self->tree;
    uint64_t done = atomic_load(&self->shared.playouts);
    atomic_store(&t->claimed, done);
    t->target = playouts ? done + playouts : 0;
    double start = now_seconds();
    self->run_start = start;
    self->shared.deadline = seconds > 0.0 ? start + seconds : 0.0;
    thread_t threads[MAXTHREADS];
    Job jobs[MAXTHREADS];
    int started = 0;
    Py_BEGIN_ALLOW_THREADS;
    for (int i = 1; i < self->nworkers; i++) {
        jobs[i].s = self;
        jobs[i].index = i;
        if (thread_start(&threads[i], worker, &jobs[i]) != 0) break;
        started = i;
    }
    jobs[0].s = self;
    jobs[0].index = 0;
    worker(&jobs[0]);
    for (int i = 1; i <= started; i++) thread_join(threads[i]);
    Py_END_ALLOW_THREADS;
    self->seconds += now_seconds() - start;
    atomic_store(&self->shared.stop, 0);
    self->running = 0;
    Py_RETURN_NONE;
}

/* advance(moves): the moves were played from the root; the tree keeps what it had found
   below them. Returns the root visits kept. */
static PyObject *Searcher_advance(Searcher *self, PyObject *arg)
{
    if (Searcher_busy(self)) return NULL;
    if (!self->workers) {
        PyErr_SetString(PyExc_RuntimeError, "this search was not made");
        return NULL;
    }
    PyObject *seq = PySequence_Check(arg) ? PySequence_List(arg) : NULL;
    if (!seq) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "advance takes a list of moves");
        return NULL;
    }
    Py_ssize_t count = PyList_Size(seq);
    if (count > MAXPLIES) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "too many moves");
        return NULL;
    }
    int moves[MAXPLIES];
    for (Py_ssize_t i = 0; i < count; i++) {
        moves[i] = (int)PyLong_AsLong(PyList_GetItem(seq, i));
        if (moves[i] == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return NULL;
        }
    }
    Py_DECREF(seq);
    if (!Searcher_ready(self)) return PyErr_NoMemory();
    Tree *t = &self->tree;
    if (DISPATCH(self->nw, tree_advance, ((void *)self->ctx, t, &self->workers[0], moves, (int)count)) < 0)
        return PyErr_NoMemory();
    return PyLong_FromUnsignedLong(load_u32(&t->nodes[0].total));
}

static PyObject *Searcher_stop(Searcher *self, PyObject *unused)
{
    atomic_store(&self->shared.stop, 1);
    Py_RETURN_NONE;
}

/* The root's moves: [(move, visits, wins, proven, pv), ...]. */
static PyObject *Searcher_stats(Searcher *self, PyObject *unused)
{
    if (!Searcher_ready(self)) return PyList_New(0); /* out of memory */
    Tree *t = &self->tree;
    Node *root = &t->nodes[0];
    int count = root->nedges;
    PyObject *list = PyList_New(count);
    if (!list) return NULL;
    for (int i = 0; i < count; i++) {
        Edge *re = &t->edges[root->edges + i];
        PyObject *pv = PyList_New(0);
        if (!pv) {
            Py_DECREF(list);
            return NULL;
        }
        int node = atomic_load(&re->child);
        for (int depth = 0; node >= 0 && depth < 30; depth++) {
            Node *nd = &t->nodes[node];
            if (!nd->nedges) break;
            int best = -1;
            uint32_t most = 0;
            for (int j = 0; j < nd->nedges; j++) {
                uint32_t v = load_u32(&t->edges[nd->edges + j].visits);
                if (v > most) {
                    most = v;
                    best = j;
                }
            }
            if (best < 0 || most < 2) break;
            Edge *e = &t->edges[nd->edges + best];
            PyObject *m = PyLong_FromLong(e->move);
            if (!m || PyList_Append(pv, m) < 0) {
                Py_XDECREF(m);
                Py_DECREF(pv);
                Py_DECREF(list);
                return NULL;
            }
            Py_DECREF(m);
            node = atomic_load(&e->child);
        }
        PyObject *item = Py_BuildValue("(iKdiN)", re->move, (unsigned long long)load_u32(&re->visits),
                                       load_u32(&re->wins2) * 0.5, (int)atomic_load(&re->proven), pv);
        if (!item) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SetItem(list, i, item);
    }
    return list;
}

/* The whole tree, for the tests of its invariants: one (total, ended, solved, turn,
   [(move, visits, wins, proven, child), ...]) per node, the root first. */
static PyObject *Searcher_dump(Searcher *self, PyObject *unused)
{
    if (Searcher_busy(self)) return NULL;
    if (!Searcher_ready(self)) return PyList_New(0);
    Tree *t = &self->tree;
    long long count = load_ll(&t->nnodes);
    PyObject *list = PyList_New((Py_ssize_t)count);
    if (!list) return NULL;
    for (long long i = 0; i < count; i++) {
        Node *nd = &t->nodes[i];
        PyObject *edges = PyList_New(nd->nedges);
        if (!edges) {
            Py_DECREF(list);
            return NULL;
        }
        for (int j = 0; j < nd->nedges; j++) {
            Edge *e = &t->edges[nd->edges + j];
            PyObject *item = Py_BuildValue("(iIdii)", e->move, load_u32(&e->visits),
                                           load_u32(&e->wins2) * 0.5, (int)atomic_load(&e->proven),
                                           atomic_load(&e->child));
            if (!item) {
                Py_DECREF(edges);
                Py_DECREF(list);
                return NULL;
            }
            PyList_SetItem(edges, j, item);
        }
        PyObject *row = Py_BuildValue("(IIiiN)", load_u32(&nd->total), load_u32(&nd->ended),
                                      (int)atomic_load(&nd->solved), (int)nd->turn, edges);
        if (!row) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SetItem(list, (Py_ssize_t)i, row);
    }
    return list;
}

/* The root's AMAF statistics of its own moves for the colour to move there: [(move,
   playouts, wins), ...] in the order of stats(); playouts 0 before its table exists. */
static PyObject *Searcher_root_amaf(Searcher *self, PyObject *unused)
{
    if (Searcher_busy(self)) return NULL;
    if (!Searcher_ready(self)) return PyList_New(0);
    Tree *t = &self->tree;
    Node *root = &t->nodes[0];
    int table = atomic_load(&root->amaf);
    PyObject *list = PyList_New(root->nedges);
    if (!list) return NULL;
    for (int i = 0; i < root->nedges; i++) {
        Edge *e = &t->edges[root->edges + i];
        int key = DISPATCH(self->nw, amaf_key, ((void *)self->ctx, e->move, root->turn));
        uint64_t a = table >= 0 ? atomic_load(&t->amaf[(int64_t)table * t->table + key]) : 0;
        PyObject *item = Py_BuildValue("(iKd)", e->move, (unsigned long long)(a >> 32),
                                       (double)(a & 0xffffffffu) * 0.5);
        if (!item) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SetItem(list, i, item);
    }
    return list;
}

static PyObject *Searcher_get_playouts(Searcher *self, void *closure)
{
    return PyLong_FromUnsignedLongLong(atomic_load(&self->shared.playouts));
}

static PyObject *Searcher_get_seconds(Searcher *self, void *closure)
{
    double running = self->running ? now_seconds() - self->run_start : 0.0;
    return PyFloat_FromDouble(self->seconds + running);
}

static PyObject *Searcher_get_nodes(Searcher *self, void *closure)
{
    return PyLong_FromLongLong(load_ll(&self->tree.nnodes));
}

static PyObject *Searcher_get_threads(Searcher *self, void *closure)
{
    return PyLong_FromLong(self->nworkers);
}

/* The memory the tree holds now: nodes, edges and AMAF tables in use. */
static PyObject *Searcher_get_bytes(Searcher *self, void *closure)
{
    Tree *t = &self->tree;
    long long bytes = load_ll(&t->nnodes) * (int64_t)sizeof(Node) +
                      load_ll(&t->nedges) * (int64_t)sizeof(Edge) +
                      load_ll(&t->namaf) * t->table * (int64_t)sizeof(Amaf);
    return PyLong_FromLongLong(bytes);
}

/* The root's proof: 0 unknown, 1 + winner, 3 a draw. */
static PyObject *Searcher_get_solved(Searcher *self, void *closure)
{
    return PyLong_FromLong(atomic_load(&self->tree.root_solved));
}

static PyMethodDef Searcher_methods[] = {
    {"run", (PyCFunction)Searcher_run, METH_VARARGS, "run(playouts, seconds): search (GIL released)."},
    {"stop", (PyCFunction)Searcher_stop, METH_NOARGS, "Ask a running search to return (thread-safe)."},
    {"advance", (PyCFunction)Searcher_advance, METH_O, "advance(moves): keep the subtree below them."},
    {"stats", (PyCFunction)Searcher_stats, METH_NOARGS, "The root's moves: (move, visits, wins, proven, pv)."},
    {"dump", (PyCFunction)Searcher_dump, METH_NOARGS, "Every node: (total, ended, solved, turn, edges)."},
    {"root_amaf", (PyCFunction)Searcher_root_amaf, METH_NOARGS, "The root's AMAF statistics of its moves: (move, playouts, wins)."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Searcher_getset[] = {
    {"playouts", (getter)Searcher_get_playouts, NULL, "Playouts so far, over every run.", NULL},
    {"seconds", (getter)Searcher_get_seconds, NULL, "Wall time spent in run so far, the run under way included.", NULL},
    {"nodes", (getter)Searcher_get_nodes, NULL, "Nodes in the tree.", NULL},
    {"threads", (getter)Searcher_get_threads, NULL, "Threads that search the tree.", NULL},
    {"bytes", (getter)Searcher_get_bytes, NULL, "Memory the tree uses now.", NULL},
    {"solved", (getter)Searcher_get_solved, NULL, "The root's proof (0 unknown).", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyType_Slot Searcher_slots[] = {
    {Py_tp_doc, (void *)"Monte Carlo tree search in C, one tree searched by every thread."},
    {Py_tp_new, (void *)PyType_GenericNew},
    {Py_tp_init, (void *)Searcher_init},
    {Py_tp_dealloc, (void *)Searcher_dealloc},
    {Py_tp_methods, Searcher_methods},
    {Py_tp_getset, Searcher_getset},
    {0, NULL},
};

static PyType_Spec Searcher_spec = {
    .name = "abstracts_tui.engine._core.Searcher",
    .basicsize = sizeof(Searcher),
    .flags = Py_TPFLAGS_DEFAULT,
    .slots = Searcher_slots,
};

static struct PyModuleDef module = {
    .m_base = PyModuleDef_HEAD_INIT,
    .m_name = "_core",
    .m_doc = "The compiled rules and search of abstracts-tui.",
    .m_size = -1,
};

PyMODINIT_FUNC PyInit__core(void)
{
    for (int i = 0; i < INV_SQRT_SIZE; i++) inv_sqrt_table[i] = 1.0 / sqrt((double)i + 1.0);
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    PyObject *position = PyType_FromSpec(&Position_spec);
    PyObject *searcher = position ? PyType_FromSpec(&Searcher_spec) : NULL;
    /* The module keeps a reference to each type; PositionType borrows it. */
    if (!searcher || PyModule_AddObject(m, "Position", position) < 0) {
        Py_XDECREF(position);
        Py_XDECREF(searcher);
        Py_DECREF(m);
        return NULL;
    }
    PositionType = (PyTypeObject *)position;
    if (PyModule_AddObject(m, "Searcher", searcher) < 0) {
        Py_DECREF(searcher);
        Py_DECREF(m);
        return NULL;
    }
    PyModule_AddIntConstant(m, "MAX_BITS", MAXBITS);
    return m;
}
