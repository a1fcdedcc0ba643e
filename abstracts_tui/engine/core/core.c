/* abstracts_tui.engine._core: the five games' rules and the Monte Carlo tree search in C.
 *
 * Python keeps the readable reference rules (abstracts_tui/rules/); this module mirrors
 * them on fixed-size multi-word bitboards (bitboard.h, rules.h, playout.h) and runs the
 * whole search iteration (selection, expansion, playout, outcome, update) without the
 * interpreter (search.h), on one tree shared by every thread, with the GIL released.
 * All of that is engine.h, which needs no Python; this file gives it to Python.
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

#include "engine.h"

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
    PyObject_HEAD PyObject *position; /* keeps the ctx alive */
    Search search;
} Searcher;

/* Whether a run is under way (a RuntimeError set): the tree may not be read or changed. */
static int Searcher_busy(Searcher *self)
{
    if (!self->search.running) return 0;
    PyErr_SetString(PyExc_RuntimeError, "this search is running");
    return 1;
}

static void Searcher_dealloc(Searcher *self)
{
    search_free(&self->search);
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
    if (Searcher_busy(self)) return -1; /* its threads are walking the tree */
    if (self->position) { /* __init__ called again: start afresh */
        search_free(&self->search);
        Py_CLEAR(self->position);
    }
    Position *p = (Position *)pos;
    Py_INCREF(pos);
    self->position = pos;
    Params params = {.grave = grave, .ref = ref, .amaf_from = amaf_from, .solver = solver,
                     .bias = bias, .exploration = exploration};
    if (search_make(&self->search, p->ctx, p->nw, p->state, seed, threads, params, max_bytes,
                    exact) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

/* run(playouts, seconds): search until the playouts (0: no limit) or the seconds (0: no
   limit) are spent, or stop() is called. The GIL is released meanwhile. */
static PyObject *Searcher_run(Searcher *self, PyObject *args)
{
    unsigned long long playouts;
    double seconds;
    if (!PyArg_ParseTuple(args, "Kd", &playouts, &seconds)) return NULL;
    if (self->search.running) {
        PyErr_SetString(PyExc_RuntimeError, "this search is already running");
        return NULL;
    }
    if (!self->search.workers) {
        PyErr_SetString(PyExc_RuntimeError, "this search was not made");
        return NULL;
    }
    if (!search_ready(&self->search)) return PyErr_NoMemory();
    search_begin(&self->search, playouts, seconds);
    Py_BEGIN_ALLOW_THREADS;
    search_go(&self->search);
    Py_END_ALLOW_THREADS;
    search_end(&self->search);
    Py_RETURN_NONE;
}

static PyObject *Searcher_advance(Searcher *self, PyObject *arg)
{
    if (Searcher_busy(self)) return NULL;
    if (!self->search.workers) {
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
    if (!search_ready(&self->search)) return PyErr_NoMemory();
    Tree *t = &self->search.tree;
    if (DISPATCH(self->search.nw, tree_advance, ((void *)self->search.ctx, t, &self->search.workers[0], moves, (int)count)) < 0)
        return PyErr_NoMemory();
    search_clear_scores(&self->search);
    return PyLong_FromUnsignedLong(load_u32(&t->nodes[0].total));
}

static PyObject *Searcher_stop(Searcher *self, PyObject *unused)
{
    atomic_store(&self->search.shared.stop, 1);
    Py_RETURN_NONE;
}

/* The root's moves: [(move, visits, wins, proven, pv), ...]. */
static PyObject *Searcher_stats(Searcher *self, PyObject *unused)
{
    if (!search_ready(&self->search)) return PyList_New(0); /* out of memory */
    Tree *t = &self->search.tree;
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

/* The root's moves' expected scores, in the order of stats(): [(margins, playouts), ...],
   the final margins of the playouts through each move summed, in points for the person
   to move at the root, and how many playouts they are (walks a proof answered have no
   margin; after advance(), the playouts since). */
static PyObject *Searcher_scores(Searcher *self, PyObject *unused)
{
    if (!search_ready(&self->search)) return PyList_New(0);
    Node *root = &self->search.tree.nodes[0];
    PyObject *list = PyList_New(root->nedges);
    if (!list) return NULL;
    for (int i = 0; i < root->nedges; i++) {
        long long margin2;
        unsigned long long playouts;
        search_score(&self->search, i, &margin2, &playouts);
        PyObject *item = Py_BuildValue("(dK)", margin2 * 0.5, playouts);
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
    if (!search_ready(&self->search)) return PyList_New(0);
    Tree *t = &self->search.tree;
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
    if (!search_ready(&self->search)) return PyList_New(0);
    Tree *t = &self->search.tree;
    Node *root = &t->nodes[0];
    int table = atomic_load(&root->amaf);
    PyObject *list = PyList_New(root->nedges);
    if (!list) return NULL;
    for (int i = 0; i < root->nedges; i++) {
        Edge *e = &t->edges[root->edges + i];
        int key = DISPATCH(self->search.nw, amaf_key, ((void *)self->search.ctx, e->move, root->turn));
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
    return PyLong_FromUnsignedLongLong(atomic_load(&self->search.shared.playouts));
}

/* Walks a proof answered without a playout (the playouts run are the walks less these):
   read before the walks, never more than they. */
static PyObject *Searcher_get_answered(Searcher *self, void *closure)
{
    return PyLong_FromUnsignedLongLong(atomic_load(&self->search.shared.answered));
}

static PyObject *Searcher_get_seconds(Searcher *self, void *closure)
{
    double running = self->search.running ? now_seconds() - self->search.run_start : 0.0;
    return PyFloat_FromDouble(self->search.seconds + running);
}

static PyObject *Searcher_get_nodes(Searcher *self, void *closure)
{
    return PyLong_FromLongLong(load_ll(&self->search.tree.nnodes));
}

/* Walks that took a move below the root while another walk was under way through it. */
static PyObject *Searcher_get_met(Searcher *self, void *closure)
{
    unsigned long long met = 0;
    for (int i = 0; self->search.workers && i < self->search.nworkers; i++)
        met += atomic_load(&self->search.workers[i].met);
    return PyLong_FromUnsignedLongLong(met);
}

static PyObject *Searcher_get_threads(Searcher *self, void *closure)
{
    return PyLong_FromLong(self->search.nworkers);
}

/* The memory the tree holds now: nodes, edges and AMAF tables in use. */
static PyObject *Searcher_get_bytes(Searcher *self, void *closure)
{
    return PyLong_FromLongLong(search_bytes(&self->search));
}

/* The root's proof: 0 unknown, 1 + winner, 3 a draw. */
static PyObject *Searcher_get_solved(Searcher *self, void *closure)
{
    return PyLong_FromLong(atomic_load(&self->search.tree.root_solved));
}

static PyMethodDef Searcher_methods[] = {
    {"run", (PyCFunction)Searcher_run, METH_VARARGS, "run(playouts, seconds): search (GIL released)."},
    {"stop", (PyCFunction)Searcher_stop, METH_NOARGS, "Ask a running search to return (thread-safe)."},
    {"advance", (PyCFunction)Searcher_advance, METH_O, "advance(moves): keep the subtree below them."},
    {"stats", (PyCFunction)Searcher_stats, METH_NOARGS, "The root's moves: (move, visits, wins, proven, pv)."},
    {"scores", (PyCFunction)Searcher_scores, METH_NOARGS, "The root's moves' final margins summed and their playouts: (margins, playouts)."},
    {"dump", (PyCFunction)Searcher_dump, METH_NOARGS, "Every node: (total, ended, solved, turn, edges)."},
    {"root_amaf", (PyCFunction)Searcher_root_amaf, METH_NOARGS, "The root's AMAF statistics of its moves: (move, playouts, wins)."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Searcher_getset[] = {
    {"playouts", (getter)Searcher_get_playouts, NULL, "Walks of the tree so far (what a playout budget counts), over every run.", NULL},
    {"answered", (getter)Searcher_get_answered, NULL, "Walks a proof answered without a playout, over every run.", NULL},
    {"seconds", (getter)Searcher_get_seconds, NULL, "Wall time spent in run so far, the run under way included.", NULL},
    {"nodes", (getter)Searcher_get_nodes, NULL, "Nodes in the tree.", NULL},
    {"threads", (getter)Searcher_get_threads, NULL, "Threads that search the tree.", NULL},
    {"met", (getter)Searcher_get_met, NULL, "Walks that met another under way below the root, over every run.", NULL},
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
    engine_init();
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
