/* Monte Carlo tree search with GRAVE (or UCT) and an MCTS-solver, on one tree that every
 * thread searches at once (see core.c: the tree), for NW-word boards; included once per
 * word count. The statistics mirror the Python
 * search (abstracts_tui/engine/search.py): a move gets a node on its second visit, a
 * node keeps AMAF statistics from its amaf_from-th playout (the root from the first),
 * and selection borrows those of the closest ancestor with at least `ref` playouts.
 *
 * The solver: an edge whose move ends the game is proven (its winner, or a draw); a
 * node is proven when one of its edges wins for the colour to move there, or when every
 * edge is proven (then the best of them for that colour); a proven node proves the edge
 * into it. Selection never walks into an edge proven lost for the mover, and a walk that
 * reaches a proven edge or node takes its result instead of a playout.
 *
 * The pie rule's swap: the rules keep colours, and after a swap the same colour moves
 * again, but the person who swapped now plays the other colour. So every statistic of
 * a node is kept for the people as they are there: a result that reaches a node from
 * below a swap (a swap taken at or after that node in the walk or its playout) is the
 * other colour's (`flip_result`), an edge's proof is its node's (a swap's edge holds its
 * child's proof flipped), and the AMAF statistics of such a node take only the moves up
 * to the swap, flipped (after it each colour is played by the other person). Otherwise
 * a swap's value would be that of playing on for the colour, and the search would never
 * see that a first move is worth swapping.
 *
 * The expected score: a walk that ends the game (a playout, or a move that ends it)
 * adds the final margin to its root move's, for the person to move at the root, in its
 * thread's own sums (engine.h: search_score); a walk a proof answered adds none. */

/* The exact value of a position with few moves left, by depth-first search with the
   first winning move cutting the rest: 1 + winner, 3 a draw, 0 when it would take more
   than *budget positions (then nothing is known). */
static int F(exact)(const Ctx *c, const State *s, int *budget)
{
    if (s->swap) return 0; /* its minimax is of colours: a swap would change the players */
    if (F(is_over)(c, s)) {
        int w = F(winner)(c, s);
        return w == DRAW ? PROVEN_DRAW : w + 1;
    }
    if (--*budget < 0) return 0;
    int moves[EXACT_MOVES * 4 + 8];
    int count = F(legal_moves)(c, s, moves);
    int turn = F(turn_of)(c, s), best = (1 - turn) + 1;
    for (int i = 0; i < count; i++) {
        State next = *s;
        F(apply)(c, &next, moves[i]);
        if (F(count_moves)(c, &next) > EXACT_MOVES * 4) return 0;
        int r = F(exact)(c, &next, budget);
        if (!r) return 0;
        if (r == turn + 1) return r;
        if (r == PROVEN_DRAW) best = PROVEN_DRAW;
    }
    return best;
}

/* Take n consecutive items of a pool of cap: the first, or -1 when they do not fit (and
   then nothing is taken). Threads take from the same pools, so it is a compare-and-swap. */
static int64_t F(take)(atomic_llong *used, int64_t cap, int64_t n)
{
    long long old = atomic_load_explicit(used, memory_order_relaxed);
    do {
        if (old + n > cap) return -1;
    } while (!atomic_compare_exchange_weak_explicit(used, &old, old + n, memory_order_relaxed,
                                                    memory_order_relaxed));
    return old;
}

/* A new node for position s, not yet reachable from the tree: the caller publishes it
   (a release store of the edge's child) once it is whole. -1 when the tree is full; from
   then on the tree is full for every thread, so that an edge never gets a child after a
   failed expansion (the stress test's counts rely on it). */
static int F(new_node)(const Ctx *c, Tree *t, Worker *w, const State *s)
{
    int moves[MAXMOVES];
    if (atomic_load_explicit(&t->full, memory_order_relaxed)) return -1;
    int count = F(legal_moves)(c, s, moves);
    int64_t first = F(take)(&t->nedges, t->cap_edges, count);
    int64_t id = first < 0 ? -1 : F(take)(&t->nnodes, t->cap_nodes, 1);
    if (id < 0) {
        atomic_store_explicit(&t->full, 1, memory_order_relaxed);
        return -1;
    }
    Node *nd = &t->nodes[id];
    nd->edges = (int32_t)first;
    nd->nedges = (uint16_t)count;
    nd->turn = (int8_t)F(turn_of)(c, s);
    nd->pie = s->swap != 0;
    atomic_store_explicit(&nd->solved, 0, memory_order_relaxed);
    atomic_store_explicit(&nd->total, 0, memory_order_relaxed);
    atomic_store_explicit(&nd->ended, 0, memory_order_relaxed);
    atomic_store_explicit(&nd->amaf, NO_AMAF, memory_order_relaxed);
    /* Ties before any statistics go to a random move rather than the lowest cell; a
       rotation serves as well as a shuffle. */
    int shift = count > 1 ? (int)rng_below(&w->rng, (uint32_t)count) : 0;
    for (int i = 0; i < count; i++) {
        Edge *e = &t->edges[first + i];
        e->move = moves[(i + shift) % count];
        atomic_store_explicit(&e->visits, 0, memory_order_relaxed);
        atomic_store_explicit(&e->wins2, 0, memory_order_relaxed);
        atomic_store_explicit(&e->child, NO_CHILD, memory_order_relaxed);
        atomic_store_explicit(&e->proven, 0, memory_order_relaxed);
        atomic_store_explicit(&e->pending, 0, memory_order_relaxed);
    }
    if (t->exact && count <= EXACT_MOVES) {
        int budget = EXACT_BUDGET;
        atomic_store_explicit(&nd->solved, (unsigned char)F(exact)(c, s, &budget), memory_order_relaxed);
    }
    return (int)id;
}

static int F(tree_init)(const Ctx *c, Tree *t, Worker *w, const State *root)
{
    t->root = malloc(sizeof(State));
    if (!t->root) return -1;
    memcpy(t->root, root, sizeof(State));
    t->table = (int64_t)c->slots * 2;
    /* The root is not solved at once: its edges get proven through their children,
       so that the winning move is known, not only that there is one. */
    int exact = t->exact;
    t->exact = 0;
    int made = F(new_node)(c, t, w, root);
    t->exact = exact;
    if (made < 0) return -1;
    atomic_store(&t->nodes[0].amaf, tree_amaf(t));
    return 0;
}

/* Statistics are read without locks while other threads update them: a value may be a
   playout behind, never torn. A move some thread is exploring counts as a visit, and its
   value is lowered as if each walk under way through it (its `pending`) had lost, until
   that thread's playout ends (the virtual loss), which steers the other threads
   elsewhere meanwhile. GRAVE's value is lowered as a whole: a move's own visits weigh
   little beside its AMAF statistics until they near 1 / bias, so a lost visit counted
   among them alone hardly moved it, and the threads followed each other down one line.

   A move proven lost for the mover is never chosen; a move proven a draw only when every
   other move is proven too (the best draw then). Its value is known, and a visit tells
   nothing more: chosen by its value, a draw worth more than the other moves looked took
   every visit, and a winning move that looked bad was never tried (a timed search then
   never ended, its time spent on the draw: score-bounded MCTS prunes such a move). */
static inline int F(select_grave)(const Ctx *c, const Params *pr, Tree *t, Node *nd, int ref,
                                  uint32_t total, int single)
{
    const Amaf *table = ref >= 0 ? &t->amaf[(int64_t)ref * t->table] : NULL;
    double scale = pr->exploration * sqrt(log((double)total + 1.0));
    double bias = pr->bias;
    int turn = nd->turn, loss = (1 - turn) + 1;
    Choice choice = NO_CHOICE;
    Edge *edges = &t->edges[nd->edges];
    /* The pie rule's swap is played once a game, so its AMAF statistics are next to
       none, and after one lost playout it was never tried again. What it is worth is
       known otherwise: the position stays, the other person plays on, so the swap wins
       what playing on loses. Once tried, its prior is the most visited other move's,
       seen from the other side (in place of the AMAF statistics, and weighed as they
       are); untried, it has no statistics and is tried first. */
    double pie_n = 0.0, pie_w = 0.0;
    if (nd->pie) {
        for (int i = 0; i < nd->nedges; i++) {
            if (edges[i].move == MOVE_SWAP) continue;
            double v = atomic_load_explicit(&edges[i].visits, memory_order_relaxed);
            if (v > pie_n) {
                pie_n = v;
                pie_w = v - atomic_load_explicit(&edges[i].wins2, memory_order_relaxed) * 0.5;
            }
        }
    }
    for (int i = 0; i < nd->nedges; i++) {
        Edge *e = &edges[i];
        int proven = atomic_load_explicit(&e->proven, memory_order_relaxed);
        if (proven == loss) continue;
        double an = 0.0, aw = 0.0;
        if (nd->pie && e->move == MOVE_SWAP) {
            if (atomic_load_explicit(&e->visits, memory_order_relaxed)) {
                an = pie_n;
                aw = pie_w;
            }
        } else if (table) {
            uint64_t a = atomic_load_explicit(&table[F(amaf_key)(c, e->move, turn)],
                                              memory_order_relaxed);
            an = (double)(a >> 32);
            aw = (double)(a & 0xffffffffu) * 0.5;
        }
        uint32_t visits = atomic_load_explicit(&e->visits, memory_order_relaxed);
        double n = visits, w = atomic_load_explicit(&e->wins2, memory_order_relaxed) * 0.5;
        double p = 0.0; /* walks under way: its visits less these have their results */
        if (!single) {
            p = atomic_load_explicit(&e->pending, memory_order_relaxed);
            n = n > p ? n - p : 0.0; /* read at another instant than the visits */
        }
        double weight = an + n + bias * an * n;
        double value = weight > 0.0 ? (w + aw + bias * an * w) / weight : 1.0;
        if (p > 0.0) value *= (n + 1.0) / (n + 1.0 + VIRTUAL_LOSS * p);
        if (scale > 0.0) value += scale * inv_sqrt1(visits);
        consider(&choice, i, value, proven == PROVEN_DRAW);
    }
    return chosen(&choice);
}

static inline int F(select_uct)(const Params *pr, Tree *t, Node *nd, uint32_t total)
{
    double log_total = log((double)total + 1.0);
    int loss = (1 - nd->turn) + 1;
    Choice choice = NO_CHOICE;
    Edge *edges = &t->edges[nd->edges];
    for (int i = 0; i < nd->nedges; i++) {
        Edge *e = &edges[i];
        int proven = atomic_load_explicit(&e->proven, memory_order_relaxed);
        if (proven == loss) continue;
        uint32_t visits = atomic_load_explicit(&e->visits, memory_order_relaxed);
        if (!visits) return i;
        double wins = atomic_load_explicit(&e->wins2, memory_order_relaxed) * 0.5;
        double value = wins / visits + pr->exploration * sqrt(log_total / visits);
        consider(&choice, i, value, proven == PROVEN_DRAW);
    }
    return chosen(&choice);
}

/* Whether node nd is proven now: its code (1 + winner, or 3 for a draw), else 0. */
static inline int F(node_proof)(Tree *t, Node *nd)
{
    int win = nd->turn + 1, all = 1, draw = 0;
    Edge *edges = &t->edges[nd->edges];
    for (int i = 0; i < nd->nedges; i++) {
        int p = atomic_load_explicit(&edges[i].proven, memory_order_acquire);
        if (p == win) return win;
        if (!p) all = 0;
        if (p == PROVEN_DRAW) draw = 1;
    }
    if (!all) return 0;
    return draw ? PROVEN_DRAW : (1 - nd->turn) + 1;
}

/* One iteration: down the tree to a leaf, a playout, and its result back up. Every
   counter a thread shares is changed by one atomic step (one thread alone uses plain
   loads and stores for the AMAF tables, the bulk of the work). What the stress test
   checks follows from the order of the steps: a node's total is the sum of its edges'
   visits; an edge's visits are its child's total and ended, plus the one playout from
   the leaf that came before the child (a move gets a node on its second visit).
   Returns 1 when a proof gave the walk its result (no playout was run), else 0. */
static int F(iterate)(const Ctx *c, const Params *pr, Tree *t, Worker *w)
{
    State st;
    memcpy(&st, t->root, sizeof st);
    int path_node[MAXPATH], path_edge[MAXPATH], depth = 0, nk = 0;
    int *keys = w->keys;
    int node = 0, ref = atomic_load_explicit(&t->nodes[0].amaf, memory_order_acquire);
    int result = -1, proven_at = -1, answered = 0;
    /* The game's final margin in half points, and whether the walk reached the end of
       the game (a proof's answer gives a result and no margin). */
    int margin2 = 0, scored = 0;
    /* The path's depth whose node's move (or playout) swapped, and that ply of keys:
       nodes at that depth or above see results flipped. */
    int swap_at = -1, swap_ply = -1;
    int met = 0; /* whether the walk took a move below the root that another walk was on */
    int single = t->single;
    for (;;) {
        Node *nd = &t->nodes[node];
        /* Below the root a proven node gives its result at once; the root goes on
           choosing among its edges, so that a playout budget is spent as asked. */
        int solved = depth > 0 ? atomic_load_explicit(&nd->solved, memory_order_acquire) : 0;
        if (solved || !nd->nedges) {
            atomic_fetch_add_explicit(&nd->ended, 1, memory_order_relaxed);
            if (solved)
                result = solved - 1;
            else
                result = F(final)(c, &st, &margin2);
            answered = solved != 0;
            scored = !answered;
            break;
        }
        uint32_t total = atomic_fetch_add_explicit(&nd->total, 1, memory_order_relaxed);
        int amaf = atomic_load_explicit(&nd->amaf, memory_order_acquire);
        if (total >= (uint32_t)pr->ref && amaf >= 0) ref = amaf;
        /* one thread's selection, made apart, reads no walks under way */
        int pick = !pr->grave   ? F(select_uct)(pr, t, nd, total)
                   : single    ? F(select_grave)(c, pr, t, nd, ref, total, 1)
                               : F(select_grave)(c, pr, t, nd, ref, total, 0);
        int ei = nd->edges + pick;
        Edge *e = &t->edges[ei];
        uint32_t seen = atomic_fetch_add_explicit(&e->visits, 1, memory_order_relaxed);
        if (!single && atomic_fetch_add_explicit(&e->pending, 1, memory_order_relaxed) && depth)
            met = 1;
        if (e->move == MOVE_SWAP) {
            swap_at = depth;
            swap_ply = nk;
        }
        keys[nk++] = F(amaf_key)(c, e->move, nd->turn);
        F(apply)(c, &st, e->move);
        path_node[depth] = node;
        path_edge[depth++] = ei;
        /* The proof is read before the child: a proof is written after its child is
           published, so a proven edge with a child always leads into it (where the
           child's own proof ends the walk and is counted there). */
        int proven = atomic_load_explicit(&e->proven, memory_order_acquire);
        int child = atomic_load_explicit(&e->child, memory_order_acquire);
        /* The first visit of a move ends at the move (a playout from there), even when
           a thread that came later has made its node meanwhile: one visit, and one
           only, comes before the node. */
        if (child >= 0 && seen) {
            node = child;
            continue;
        }
        if (proven) {
            /* the edge's proof is its node's: a swap's, the result below it flipped */
            result = e->move == MOVE_SWAP ? flip_result(proven - 1) : proven - 1;
            answered = 1;
            break;
        }
        if (F(is_over)(c, &st)) {
            result = F(final)(c, &st, &margin2);
            scored = 1;
            if (pr->solver) {
                int own = e->move == MOVE_SWAP ? flip_result(result) : result;
                atomic_store_explicit(&e->proven, (unsigned char)(own + 1), memory_order_release);
                proven_at = depth - 1;
            }
            break;
        }
        if (!seen || depth >= MAXPATH) break;
        if (child == NO_CHILD) {
            int expected = NO_CHILD;
            if (atomic_compare_exchange_strong(&e->child, &expected, MAKING)) {
                int made = F(new_node)(c, t, w, &st);
                if (made < 0) {
                    atomic_store_explicit(&e->child, NO_CHILD, memory_order_release);
                    break;
                }
                int made_solved = atomic_load_explicit(&t->nodes[made].solved, memory_order_relaxed);
                atomic_store_explicit(&e->child, made, memory_order_release);
                if (made_solved) { /* the exact solver settled it at once */
                    int own = e->move == MOVE_SWAP ? flip_proof(made_solved) : made_solved;
                    atomic_store_explicit(&e->proven, (unsigned char)own, memory_order_release);
                    proven_at = depth - 1;
                }
                node = made;
                continue;
            }
            child = expected;
        }
        /* Another thread is making this node: it takes a moment (the exact solver's at
           most), and the walk goes on into it, so that no visit is counted twice. */
        while (child == MAKING) {
            thread_yield();
            child = atomic_load_explicit(&e->child, memory_order_acquire);
        }
        if (child < 0) break; /* the tree filled up meanwhile */
        node = child;
    }
    if (result < 0) {
        int from = nk, swap_key = F(amaf_key)(c, MOVE_SWAP, 0); /* either colour's: & ~1 */
        nk += F(playout)(c, &st, &w->rng, keys + nk, NULL);
        result = F(final)(c, &st, &margin2);
        scored = 1;
        for (int ply = from; ply < nk && swap_at < 0; ply++) {
            if ((keys[ply] & ~1) == swap_key) { /* every node of the path was before it */
                swap_at = depth;
                swap_ply = ply;
            }
        }
    }
    /* Results in half points: a win 2, a draw 1; and as the nodes before a swap see
       them, flipped. */
    uint32_t reward2[2], flipped2[2];
    if (result == DRAW) {
        reward2[0] = reward2[1] = 1;
    } else {
        reward2[result] = 2;
        reward2[1 - result] = 0;
    }
    flipped2[0] = reward2[1];
    flipped2[1] = reward2[0];
    /* Each (move, colour) once, at its last ply: it was played at or after ply d
       exactly when that ply is >= d. */
    uint32_t stamp = ++w->iter;
    int np = 0;
    int *played_ply = w->played_ply, *played_key = w->played_key;
    for (int ply = nk - 1; ply >= 0; ply--) {
        int key = keys[ply];
        if (w->stamp[key] != stamp) {
            w->stamp[key] = stamp;
            played_ply[np] = ply;
            played_key[np++] = key;
        }
    }
    for (int d = 0; d < depth; d++) {
        Node *nd = &t->nodes[path_node[d]];
        Edge *e = &t->edges[path_edge[d]];
        int before = d <= swap_at; /* this node came before the swap */
        const uint32_t *r2 = before ? flipped2 : reward2;
        atomic_fetch_add_explicit(&e->wins2, r2[nd->turn], memory_order_relaxed);
        if (!single) atomic_fetch_sub_explicit(&e->pending, 1, memory_order_relaxed);
        int amaf = atomic_load_explicit(&nd->amaf, memory_order_acquire);
        if (amaf < 0) {
            if (amaf == MAKING ||
                atomic_load_explicit(&nd->total, memory_order_relaxed) < (uint32_t)pr->amaf_from)
                continue;
            int expected = NO_AMAF;
            if (!atomic_compare_exchange_strong(&nd->amaf, &expected, MAKING)) continue;
            amaf = tree_amaf(t);
            atomic_store_explicit(&nd->amaf, amaf, memory_order_release);
            if (amaf < 0) continue;
        }
        /* The root's table is held by the thread and told in batches (several threads). */
        Amaf *table = d == 0 && !single ? NULL : &t->amaf[(int64_t)amaf * t->table];
        if (before) {
            /* The moves from this node's ply up to the swap, each (move, colour) once:
               one played there and again after the swap counts (its last ply, which the
               list below keeps, is past the swap). The swap is a game's second ply, so
               these are two plies at most. */
            for (int ply = d; ply <= swap_ply; ply++) {
                int key = keys[ply], again = 0;
                for (int q = d; q < ply; q++) again |= keys[q] == key;
                if (!again) amaf_note(w, table, key, AMAF_PLAYOUT | r2[key & 1], single);
            }
            continue;
        }
        for (int j = 0; j < np; j++) {
            if (played_ply[j] < d) break;
            int key = played_key[j];
            amaf_note(w, table, key, AMAF_PLAYOUT | r2[key & 1], single);
        }
    }
    if (!single && ++w->held_for == HOLD_PLAYOUTS) tell_held(t, w);
    if (scored && depth > 0) {
        /* The root's move's expected score, for the person to move at the root: the
           first colour's margin as the root's colour sees it, and the other way round
           where a swap came after (the person then plays the other colour). The thread
           alone writes its own sums: plain additions, read by others between them. */
        int own = t->nodes[0].turn == 0 ? margin2 : -margin2;
        if (swap_at >= 0) own = -own;
        atomic_llong *sums = &w->scores[2 * (path_edge[0] - t->nodes[0].edges)];
        atomic_store_explicit(&sums[0], atomic_load_explicit(&sums[0], memory_order_relaxed) + own,
                              memory_order_relaxed);
        atomic_store_explicit(&sums[1], atomic_load_explicit(&sums[1], memory_order_relaxed) + 1,
                              memory_order_relaxed);
    }
    if (met) /* the worker's own counter: a plain increment, read by others between runs */
        atomic_store_explicit(&w->met, atomic_load_explicit(&w->met, memory_order_relaxed) + 1,
                              memory_order_relaxed);
    for (int d = proven_at; d >= 0; d--) {
        Node *nd = &t->nodes[path_node[d]];
        int proof = F(node_proof)(t, nd);
        if (!proof) break;
        atomic_store_explicit(&nd->solved, (unsigned char)proof, memory_order_release);
        if (d > 0) {
            Edge *into = &t->edges[path_edge[d - 1]];
            int own = into->move == MOVE_SWAP ? flip_proof(proof) : proof;
            atomic_store_explicit(&into->proven, (unsigned char)own, memory_order_release);
        }
        else
            atomic_store(&t->root_solved, proof);
    }
    return answered;
}

/* One thread's share of a run: iterations until the shared budget is claimed, the
   deadline passes, or stop() is called. */
static void F(run_tree)(const Ctx *c, const Params *pr, Tree *t, Worker *w, Shared *sh)
{
    w->playouts = 0;
    while (!atomic_load_explicit(&sh->stop, memory_order_relaxed)) {
        /* A root proven through its edges (which say the move) ends a timed search. */
        if (!t->target && atomic_load(&t->root_solved) && F(node_proof)(t, &t->nodes[0])) {
            /* Proven: a timed search has nothing left to find (a playout budget is
               still spent, for searches that must be reproducible). */
            atomic_store(&sh->stop, 1);
            break;
        }
        if (sh->deadline > 0.0 && (w->playouts & 15) == 0 && now_seconds() >= sh->deadline) break;
        /* The budget is shared: each iteration is claimed first (failed claims are
           given back when the run ends). */
        if (t->target && atomic_fetch_add(&t->claimed, 1) >= t->target) break;
        w->answered += (uint64_t)F(iterate)(c, pr, t, w);
        /* The shared counts are told in batches: one counter that every thread changed
           at each playout would pass its cache line to and fro between the cores. The
           walks a proof answered are told after the walks, so that a reader who reads
           them first never finds more of them than walks. */
        if ((++w->playouts & (PLAYOUTS_TOLD - 1)) == 0) {
            atomic_fetch_add(&sh->playouts, PLAYOUTS_TOLD);
            atomic_fetch_add(&sh->answered, w->answered);
            w->answered = 0;
        }
    }
    atomic_fetch_add(&sh->playouts, w->playouts & (PLAYOUTS_TOLD - 1));
    atomic_fetch_add(&sh->answered, w->answered);
    w->answered = 0;
    tell_held(t, w);
}

/* Tree reuse: the subtree below the moves just played becomes the whole tree, copied
   into fresh arrays (so the memory of the rest comes back); a tree that never tried
   those moves starts again from the new position. No thread searches meanwhile. */
static int32_t F(copy_node)(Tree *t, const Node *old_nodes, const Edge *old_edges,
                            const Amaf *old_amaf, int32_t id)
{
    const Node *o = &old_nodes[id];
    int32_t nid = (int32_t)load_ll(&t->nnodes);
    store_ll(&t->nnodes, nid + 1);
    Node *n = &t->nodes[nid];
    n->edges = (int32_t)load_ll(&t->nedges);
    n->nedges = o->nedges;
    n->turn = o->turn;
    store_u32(&n->total, load_u32(&o->total));
    store_u32(&n->ended, load_u32(&o->ended));
    atomic_store_explicit(&n->solved, atomic_load_explicit(&o->solved, memory_order_relaxed),
                          memory_order_relaxed);
    store_ll(&t->nedges, n->edges + o->nedges);
    memcpy(&t->edges[n->edges], &old_edges[o->edges], sizeof(Edge) * o->nedges);
    int amaf = atomic_load_explicit(&o->amaf, memory_order_relaxed);
    if (amaf >= 0) {
        int made = (int)load_ll(&t->namaf);
        store_ll(&t->namaf, made + 1);
        memcpy(&t->amaf[(int64_t)made * t->table], &old_amaf[(int64_t)amaf * t->table],
               sizeof(Amaf) * (size_t)t->table);
        amaf = made;
    }
    atomic_store_explicit(&n->amaf, amaf, memory_order_relaxed);
    for (int i = 0; i < o->nedges; i++) {
        int32_t child = atomic_load_explicit(&old_edges[o->edges + i].child, memory_order_relaxed);
        if (child >= 0) {
            int32_t copied = F(copy_node)(t, old_nodes, old_edges, old_amaf, child);
            atomic_store_explicit(&t->edges[t->nodes[nid].edges + i].child, copied,
                                  memory_order_relaxed);
        }
    }
    return nid;
}

static int F(tree_advance)(const Ctx *c, Tree *t, Worker *w, const int *moves, int count)
{
    State st;
    memcpy(&st, t->root, sizeof st);
    int32_t node = 0;
    for (int k = 0; k < count; k++) {
        int32_t next = -1;
        if (node >= 0) {
            Node *nd = &t->nodes[node];
            for (int i = 0; i < nd->nedges; i++)
                if (t->edges[nd->edges + i].move == moves[k])
                    next = atomic_load_explicit(&t->edges[nd->edges + i].child, memory_order_relaxed);
        }
        F(apply)(c, &st, moves[k]);
        node = next;
    }
    /* The copy is made beside the old tree, so it is made only from a tree that uses
       at most half of each of its arrays: old and new together stay within the bound. */
    int keep = node > 0 && !F(is_over)(c, &st) && load_ll(&t->nnodes) * 2 <= t->cap_nodes &&
               load_ll(&t->nedges) * 2 <= t->cap_edges && load_ll(&t->namaf) * 2 <= t->cap_amaf;
    Node *old_nodes = t->nodes;
    Edge *old_edges = t->edges;
    Amaf *old_amaf = t->amaf;
    if (!keep) {
        free(old_nodes);
        free(old_edges);
        free(old_amaf);
        old_nodes = NULL;
        old_edges = NULL;
        old_amaf = NULL;
    }
    t->nodes = calloc((size_t)t->cap_nodes, sizeof(Node));
    t->edges = calloc((size_t)t->cap_edges, sizeof(Edge));
    t->amaf = calloc((size_t)(t->cap_amaf * t->table), sizeof(Amaf));
    store_ll(&t->nnodes, 0);
    store_ll(&t->nedges, 0);
    store_ll(&t->namaf, 0);
    atomic_store(&t->full, 0);
    atomic_store(&t->root_solved, 0);
    if (!t->nodes || !t->edges || !t->amaf) {
        free(t->nodes);
        free(t->edges);
        free(t->amaf);
        free(old_nodes);
        free(old_edges);
        free(old_amaf);
        t->nodes = NULL;
        t->edges = NULL;
        t->amaf = NULL;
        return -1;
    }
    memcpy(t->root, &st, sizeof st);
    if (keep) {
        F(copy_node)(t, old_nodes, old_edges, old_amaf, node);
        if (atomic_load(&t->nodes[0].amaf) < 0) atomic_store(&t->nodes[0].amaf, tree_amaf(t));
        atomic_store(&t->root_solved, atomic_load(&t->nodes[0].solved));
    } else {
        int exact = t->exact;
        t->exact = 0;
        if (F(new_node)(c, t, w, &st) >= 0) atomic_store(&t->nodes[0].amaf, tree_amaf(t));
        t->exact = exact;
    }
    free(old_nodes);
    free(old_edges);
    free(old_amaf);
    return load_ll(&t->nnodes) ? 0 : -1;
}
