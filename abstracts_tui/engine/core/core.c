/* abstracts_tui.engine._core: the five games' rules and the Monte Carlo tree search in C.
 *
 * Python keeps the readable reference rules (abstracts_tui/rules/); this module mirrors
 * them on fixed-size multi-word bitboards (bitboard.h, rules.h, playout.h) and runs the
 * whole search iteration (selection, expansion, playout, outcome, update) without the
 * interpreter (search.h), on one tree per thread with the GIL released.
 *
 * Python sees two types: Position (a game state built from the Python game's own state:
 * legal moves, play, scores, winner; for the differential test and for building a
 * search's root) and Searcher (root-parallel search over one tree per thread).
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* -- the tree ---------------------------------------------------------------------------- */

typedef struct {
    int32_t move;
    uint32_t visits;
    float wins; /* for the colour to move at the parent */
    int32_t child;
    uint8_t proven; /* 0 unknown, 1 + winner colour, 3 a draw */
} Edge;

typedef struct {
    int32_t edges; /* the first of its edges */
    int32_t amaf;  /* its AMAF table, -1 before amaf_from playouts */
    uint32_t total;
    uint16_t nedges;
    int8_t turn;
    uint8_t solved; /* as Edge.proven */
} Node;

typedef struct {
    float w, n; /* wins for the key's colour, playouts */
} Amaf;

typedef struct {
    int grave, ref, amaf_from, solver;
    double bias, exploration;
} Params;

typedef struct {
    Node *nodes;
    int64_t nnodes, cap_nodes;
    Edge *edges;
    int64_t nedges, cap_edges;
    Amaf *amaf;
    int64_t namaf, cap_amaf, table; /* tables in use, their most, entries per table */
    uint32_t *stamp;
    uint32_t iter;
    int played_ply[MAXPLIES * 2], played_key[MAXPLIES * 2];
    int keys[MAXPLIES * 2];
    Rng rng;
    uint64_t playouts, target;
    int root_solved;
    int exact; /* whether new nodes with few moves are solved exactly */
    void *root; /* the root State */
} Tree;

typedef struct {
    atomic_int stop;
    atomic_ullong playouts;
    double deadline;
} Shared;

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
    if (t->namaf >= t->cap_amaf) return -1;
    return (int)t->namaf++;
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

static PyTypeObject PositionType;

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
        (game == G_EGOTZI && size > 9) || PyTuple_GET_SIZE(boards) > 4 ||
        PyTuple_GET_SIZE(levels) > MAXLEVELS) {
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
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(boards); i++)
        if (read_board(PyTuple_GET_ITEM(boards, i), words[i], nw) < 0) return -1;
    uint64_t lv[MAXLEVELS][6];
    memset(lv, 0, sizeof lv);
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(levels); i++)
        if (read_board(PyTuple_GET_ITEM(levels, i), lv[i], nw) < 0) return -1;
    DISPATCH(nw, state_load, ((void *)self->ctx, (void *)self->state, words, lv, turn, passes, last, swap));
    return 0;
}

static void Position_dealloc(Position *self)
{
    if (self->owner)
        Py_DECREF(self->owner);
    else
        free(self->ctx);
    free(self->state);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Position_legal_moves(Position *self, PyObject *unused)
{
    int moves[MAXMOVES];
    int count = DISPATCH(self->nw, legal_moves, ((void *)self->ctx, (void *)self->state, moves));
    PyObject *list = PyList_New(count);
    if (!list) return NULL;
    for (int i = 0; i < count; i++) PyList_SET_ITEM(list, i, PyLong_FromLong(moves[i]));
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
    for (int i = 0; list && i < n; i++) PyList_SET_ITEM(list, i, PyLong_FromLong(moves[i]));
    free(keys);
    return list;
}

static PyObject *Position_copy(Position *self, PyObject *unused)
{
    Position *other = PyObject_New(Position, &PositionType);
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

static PyTypeObject PositionType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "abstracts_tui.engine._core.Position",
    .tp_basicsize = sizeof(Position),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A game position in the compiled rules.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Position_init,
    .tp_dealloc = (destructor)Position_dealloc,
    .tp_methods = Position_methods,
};

/* ======================================================================================= */
/* Python: Searcher                                                                        */

typedef struct {
    PyObject_HEAD int nw;
    PyObject *position; /* keeps the ctx alive */
    void *ctx;
    Params params;
    int ntrees;
    Tree *trees;
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

static void tree_free(Tree *t)
{
    free(t->nodes);
    free(t->edges);
    free(t->amaf);
    free(t->stamp);
    free(t->root);
}

static void Searcher_dealloc(Searcher *self)
{
    if (self->trees) {
        for (int i = 0; i < self->ntrees; i++) tree_free(&self->trees[i]);
        free(self->trees);
    }
    Py_XDECREF(self->position);
    Py_TYPE(self)->tp_free((PyObject *)self);
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
    if (!PyArg_ParseTuple(args, "O!KiiiddiL|ii", &PositionType, &pos, &seed, &threads, &grave,
                          &ref, &bias, &exploration, &amaf_from, &max_bytes, &solver, &exact))
        return -1;
    if (threads < 1 || threads > MAXTHREADS) {
        PyErr_SetString(PyExc_ValueError, "threads must be between 1 and 64");
        return -1;
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
    self->ntrees = threads;
    atomic_store(&self->shared.stop, 0);
    atomic_store(&self->shared.playouts, 0);
    self->trees = calloc((size_t)threads, sizeof(Tree));
    if (!self->trees) {
        PyErr_NoMemory();
        return -1;
    }
    int slots = DISPATCH(self->nw, ctx_slots, ((void *)self->ctx));
    int64_t per_tree = max_bytes / threads;
    int64_t table_bytes = (int64_t)slots * 2 * (int64_t)sizeof(Amaf);
    for (int i = 0; i < threads; i++) {
        Tree *t = &self->trees[i];
        /* The memory bound: nodes a tenth, edges half, AMAF tables the rest (two-fifths). */
        t->cap_nodes = per_tree / 10 / (int64_t)sizeof(Node);
        t->cap_edges = per_tree / 2 / (int64_t)sizeof(Edge);
        t->cap_amaf = per_tree * 2 / 5 / table_bytes;
        if (t->cap_nodes < 1) t->cap_nodes = 1;
        if (t->cap_edges < MAXMOVES) t->cap_edges = MAXMOVES;
        if (t->cap_amaf < 1) t->cap_amaf = 1;
        /* calloc: the pages are only taken from the system as the tree grows into them */
        t->nodes = calloc((size_t)t->cap_nodes, sizeof(Node));
        t->edges = calloc((size_t)t->cap_edges, sizeof(Edge));
        t->amaf = calloc((size_t)(t->cap_amaf * table_bytes / (int64_t)sizeof(Amaf)), sizeof(Amaf));
        t->stamp = calloc((size_t)slots * 2, sizeof(uint32_t));
        if (!t->nodes || !t->edges || !t->amaf || !t->stamp) {
            PyErr_NoMemory();
            return -1;
        }
        rng_seed(&t->rng, seed + 0x9e3779b97f4a7c15ULL * (uint64_t)i);
        t->exact = exact && solver;
        if (DISPATCH(self->nw, tree_init, ((void *)self->ctx, t, p->state)) < 0) {
            PyErr_NoMemory();
            return -1;
        }
    }
    return 0;
}

static void *worker(void *arg)
{
    Job *job = arg;
    Searcher *s = job->s;
    Tree *t = &s->trees[job->index];
    DISPATCH(s->nw, run_tree, ((void *)s->ctx, &s->params, t, &s->shared));
    return NULL;
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
    for (int i = 0; i < self->ntrees; i++)
        if (!self->trees[i].nodes || !self->trees[i].nnodes) return PyErr_NoMemory();
    self->running = 1;
    for (int i = 0; i < self->ntrees; i++) {
        Tree *t = &self->trees[i];
        uint64_t share = playouts / (uint64_t)self->ntrees + ((uint64_t)i < playouts % (uint64_t)self->ntrees);
        t->target = playouts ? t->playouts + share : 0;
    }
    double start = now_seconds();
    self->run_start = start;
    self->shared.deadline = seconds > 0.0 ? start + seconds : 0.0;
    pthread_t threads[MAXTHREADS];
    Job jobs[MAXTHREADS];
    int started = 0;
    Py_BEGIN_ALLOW_THREADS;
    for (int i = 1; i < self->ntrees; i++) {
        jobs[i].s = self;
        jobs[i].index = i;
        if (pthread_create(&threads[i], NULL, worker, &jobs[i]) != 0) break;
        started = i;
    }
    jobs[0].s = self;
    jobs[0].index = 0;
    worker(&jobs[0]);
    for (int i = 1; i <= started; i++) pthread_join(threads[i], NULL);
    /* A tree whose thread could not start runs here, after the others. */
    for (int i = started + 1; i < self->ntrees; i++) worker(&jobs[i]);
    Py_END_ALLOW_THREADS;
    self->seconds += now_seconds() - start;
    atomic_store(&self->shared.stop, 0);
    self->running = 0;
    Py_RETURN_NONE;
}

/* advance(moves): the moves were played from the root; each tree keeps what it had
   found below them. Returns the root visits kept over all trees. */
static PyObject *Searcher_advance(Searcher *self, PyObject *arg)
{
    if (self->running) {
        PyErr_SetString(PyExc_RuntimeError, "this search is running");
        return NULL;
    }
    PyObject *seq = PySequence_Fast(arg, "advance takes a list of moves");
    if (!seq) return NULL;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(seq);
    if (count > MAXPLIES) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "too many moves");
        return NULL;
    }
    int moves[MAXPLIES];
    for (Py_ssize_t i = 0; i < count; i++) {
        moves[i] = (int)PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (moves[i] == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return NULL;
        }
    }
    Py_DECREF(seq);
    unsigned long long kept = 0;
    for (int i = 0; i < self->ntrees; i++) {
        Tree *t = &self->trees[i];
        if (DISPATCH(self->nw, tree_advance, ((void *)self->ctx, t, moves, (int)count)) < 0)
            return PyErr_NoMemory();
        kept += t->nodes[0].total;
    }
    return PyLong_FromUnsignedLongLong(kept);
}

static PyObject *Searcher_stop(Searcher *self, PyObject *unused)
{
    atomic_store(&self->shared.stop, 1);
    Py_RETURN_NONE;
}

/* The root's moves merged over the trees: [(move, visits, wins, proven, pv), ...].
   pv comes from the tree that visited the move most. */
static PyObject *Searcher_stats(Searcher *self, PyObject *unused)
{
    for (int k = 0; k < self->ntrees; k++)
        if (!self->trees[k].nodes || !self->trees[k].nnodes) return PyList_New(0); /* out of memory */
    Tree *t0 = &self->trees[0];
    Node *root = &t0->nodes[0];
    int count = root->nedges;
    PyObject *list = PyList_New(count);
    if (!list) return NULL;
    for (int i = 0; i < count; i++) {
        int move = t0->edges[root->edges + i].move;
        uint64_t visits = 0;
        double wins = 0.0;
        int proven = 0, best_tree = 0;
        uint32_t best_visits = 0;
        for (int k = 0; k < self->ntrees; k++) {
            Tree *t = &self->trees[k];
            Node *r = &t->nodes[0];
            for (int j = 0; j < r->nedges; j++) {
                Edge *e = &t->edges[r->edges + j];
                if (e->move != move) continue;
                visits += e->visits;
                wins += e->wins;
                if (e->proven) proven = e->proven;
                if (e->visits > best_visits) {
                    best_visits = e->visits;
                    best_tree = k;
                }
                break;
            }
        }
        PyObject *pv = PyList_New(0);
        if (!pv) {
            Py_DECREF(list);
            return NULL;
        }
        Tree *t = &self->trees[best_tree];
        Node *r = &t->nodes[0];
        int node = -1;
        for (int j = 0; j < r->nedges; j++)
            if (t->edges[r->edges + j].move == move) node = t->edges[r->edges + j].child;
        for (int depth = 0; node >= 0 && depth < 30; depth++) {
            Node *nd = &t->nodes[node];
            if (!nd->nedges) break;
            int best = -1;
            uint32_t most = 0;
            for (int j = 0; j < nd->nedges; j++)
                if (t->edges[nd->edges + j].visits > most) {
                    most = t->edges[nd->edges + j].visits;
                    best = j;
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
            node = e->child;
        }
        PyObject *item = Py_BuildValue("(iKdiN)", move, (unsigned long long)visits, wins, proven, pv);
        if (!item) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, item);
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
    long long nodes = 0;
    for (int i = 0; i < self->ntrees; i++) nodes += self->trees[i].nnodes;
    return PyLong_FromLongLong(nodes);
}

/* The memory the trees hold now: nodes, edges and AMAF tables in use. */
static PyObject *Searcher_get_bytes(Searcher *self, void *closure)
{
    long long bytes = 0;
    for (int i = 0; i < self->ntrees; i++) {
        Tree *t = &self->trees[i];
        bytes += t->nnodes * (int64_t)sizeof(Node) + t->nedges * (int64_t)sizeof(Edge) +
                 t->namaf * t->table * (int64_t)sizeof(Amaf);
    }
    return PyLong_FromLongLong(bytes);
}

/* The root's proof: 0 unknown, 1 + winner, 3 a draw. */
static PyObject *Searcher_get_solved(Searcher *self, void *closure)
{
    int solved = 0;
    for (int i = 0; i < self->ntrees; i++)
        if (self->trees[i].root_solved) solved = self->trees[i].root_solved;
    return PyLong_FromLong(solved);
}

static PyMethodDef Searcher_methods[] = {
    {"run", (PyCFunction)Searcher_run, METH_VARARGS, "run(playouts, seconds): search (GIL released)."},
    {"stop", (PyCFunction)Searcher_stop, METH_NOARGS, "Ask a running search to return (thread-safe)."},
    {"advance", (PyCFunction)Searcher_advance, METH_O, "advance(moves): keep the subtree below them."},
    {"stats", (PyCFunction)Searcher_stats, METH_NOARGS, "The root's moves: (move, visits, wins, proven, pv)."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Searcher_getset[] = {
    {"playouts", (getter)Searcher_get_playouts, NULL, "Playouts so far, over every run.", NULL},
    {"seconds", (getter)Searcher_get_seconds, NULL, "Wall time spent in run so far, the run under way included.", NULL},
    {"nodes", (getter)Searcher_get_nodes, NULL, "Nodes in the trees.", NULL},
    {"bytes", (getter)Searcher_get_bytes, NULL, "Memory the trees use now.", NULL},
    {"solved", (getter)Searcher_get_solved, NULL, "The root's proof (0 unknown).", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject SearcherType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "abstracts_tui.engine._core.Searcher",
    .tp_basicsize = sizeof(Searcher),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Monte Carlo tree search in C, one tree per thread.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Searcher_init,
    .tp_dealloc = (destructor)Searcher_dealloc,
    .tp_methods = Searcher_methods,
    .tp_getset = Searcher_getset,
};

static struct PyModuleDef module = {
    .m_base = PyModuleDef_HEAD_INIT,
    .m_name = "_core",
    .m_doc = "The compiled rules and search of abstracts-tui.",
    .m_size = -1,
};

PyMODINIT_FUNC PyInit__core(void)
{
    if (PyType_Ready(&PositionType) < 0 || PyType_Ready(&SearcherType) < 0) return NULL;
    for (int i = 0; i < INV_SQRT_SIZE; i++) inv_sqrt_table[i] = 1.0 / sqrt((double)i + 1.0);
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&PositionType);
    Py_INCREF(&SearcherType);
    if (PyModule_AddObject(m, "Position", (PyObject *)&PositionType) < 0 ||
        PyModule_AddObject(m, "Searcher", (PyObject *)&SearcherType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    PyModule_AddIntConstant(m, "MAX_BITS", MAXBITS);
    return m;
}
