/* Monte Carlo tree search with GRAVE (or UCT) and an MCTS-solver, on one tree, for
 * NW-word boards; included once per word count. The statistics mirror the Python
 * search (abstracts_tui/engine/search.py): a move gets a node on its second visit, a
 * node keeps AMAF statistics from its amaf_from-th playout (the root from the first),
 * and selection borrows those of the closest ancestor with at least `ref` playouts.
 *
 * The solver: an edge whose move ends the game is proven (its winner, or a draw); a
 * node is proven when one of its edges wins for the colour to move there, or when every
 * edge is proven (then the best of them for that colour); a proven node proves the edge
 * into it. Selection never walks into an edge proven lost for the mover, and a walk that
 * reaches a proven edge or node takes its result instead of a playout. */

/* The exact value of a position with few moves left, by depth-first search with the
   first winning move cutting the rest: 1 + winner, 3 a draw, 0 when it would take more
   than *budget positions (then nothing is known). */
static int F(exact)(const Ctx *c, const State *s, int *budget)
{
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

static int F(new_node)(const Ctx *c, Tree *t, const State *s)
{
    int moves[MAXMOVES];
    int count = F(legal_moves)(c, s, moves);
    if (t->nnodes >= t->cap_nodes || t->nedges + count > t->cap_edges) return -1;
    int id = (int)t->nnodes++;
    Node *nd = &t->nodes[id];
    nd->edges = (int32_t)t->nedges;
    nd->nedges = (uint16_t)count;
    nd->turn = (int8_t)F(turn_of)(c, s);
    nd->solved = 0;
    nd->total = 0;
    nd->amaf = -1;
    /* Ties before any statistics go to a random move rather than the lowest cell; a
       rotation serves as well as a shuffle. */
    int shift = count > 1 ? (int)rng_below(&t->rng, (uint32_t)count) : 0;
    for (int i = 0; i < count; i++) {
        Edge *e = &t->edges[t->nedges + i];
        e->move = moves[(i + shift) % count];
        e->visits = 0;
        e->wins = 0.0f;
        e->child = -1;
        e->proven = 0;
    }
    t->nedges += count;
    if (t->exact && count <= EXACT_MOVES) {
        int budget = EXACT_BUDGET;
        nd->solved = (uint8_t)F(exact)(c, s, &budget);
    }
    return id;
}

static int F(tree_init)(const Ctx *c, Tree *t, const State *root)
{
    t->root = malloc(sizeof(State));
    if (!t->root) return -1;
    memcpy(t->root, root, sizeof(State));
    t->table = (int64_t)c->slots * 2;
    /* The root is not solved at once: its edges get proven through their children,
       so that the winning move is known, not only that there is one. */
    int exact = t->exact;
    t->exact = 0;
    int made = F(new_node)(c, t, root);
    t->exact = exact;
    if (made < 0) return -1;
    t->nodes[0].amaf = tree_amaf(t);
    return 0;
}

static inline int F(select_grave)(const Ctx *c, const Params *pr, Tree *t, Node *nd, int ref)
{
    const Amaf *table = ref >= 0 ? &t->amaf[(int64_t)ref * t->table] : NULL;
    double scale = pr->exploration * sqrt(log((double)nd->total + 1.0));
    double best = -1.0, bias = pr->bias;
    int pick = -1, turn = nd->turn, loss = (1 - turn) + 1;
    Edge *edges = &t->edges[nd->edges];
    for (int i = 0; i < nd->nedges; i++) {
        Edge *e = &edges[i];
        if (e->proven == loss) continue;
        double an = 0.0, aw = 0.0;
        if (table) {
            const Amaf *a = &table[F(amaf_slot)(c, e->move) * 2 + turn];
            an = a->n;
            aw = a->w;
        }
        double n = e->visits, w = e->wins;
        double weight = an + n + bias * an * n;
        double value = weight > 0.0 ? (w + aw + bias * an * w) / weight : 1.0;
        if (scale > 0.0) value += scale * inv_sqrt1(e->visits);
        if (value > best) {
            best = value;
            pick = i;
        }
    }
    return pick < 0 ? 0 : pick;
}

static inline int F(select_uct)(const Params *pr, Tree *t, Node *nd)
{
    double log_total = log((double)nd->total + 1.0), best = -1.0;
    int pick = -1, loss = (1 - nd->turn) + 1;
    Edge *edges = &t->edges[nd->edges];
    for (int i = 0; i < nd->nedges; i++) {
        Edge *e = &edges[i];
        if (e->proven == loss) continue;
        if (!e->visits) return i;
        double value = e->wins / e->visits + pr->exploration * sqrt(log_total / e->visits);
        if (value > best) {
            best = value;
            pick = i;
        }
    }
    return pick < 0 ? 0 : pick;
}

/* Whether node nd is proven now: its code (1 + winner, or 3 for a draw), else 0. */
static inline int F(node_proof)(Tree *t, Node *nd)
{
    int win = nd->turn + 1, all = 1, draw = 0;
    Edge *edges = &t->edges[nd->edges];
    for (int i = 0; i < nd->nedges; i++) {
        int p = edges[i].proven;
        if (p == win) return win;
        if (!p) all = 0;
        if (p == PROVEN_DRAW) draw = 1;
    }
    if (!all) return 0;
    return draw ? PROVEN_DRAW : (1 - nd->turn) + 1;
}

static void F(iterate)(const Ctx *c, const Params *pr, Tree *t)
{
    State st;
    memcpy(&st, t->root, sizeof st);
    int path_node[MAXPATH], path_edge[MAXPATH], depth = 0, nk = 0;
    int *keys = t->keys;
    int node = 0, ref = t->nodes[0].amaf, result = -1, proven_at = -1;
    for (;;) {
        Node *nd = &t->nodes[node];
        /* Below the root a proven node gives its result at once; the root goes on
           choosing among its edges, so that a playout budget is spent as asked. */
        if (nd->solved && depth > 0) {
            result = nd->solved - 1;
            break;
        }
        if (!nd->nedges) {
            result = F(winner)(c, &st);
            break;
        }
        if (nd->total >= (uint32_t)pr->ref && nd->amaf >= 0) ref = nd->amaf;
        int pick = pr->grave ? F(select_grave)(c, pr, t, nd, ref) : F(select_uct)(pr, t, nd);
        int ei = nd->edges + pick;
        Edge *e = &t->edges[ei];
        keys[nk++] = F(amaf_slot)(c, e->move) * 2 + nd->turn;
        F(apply)(c, &st, e->move);
        path_node[depth] = node;
        path_edge[depth++] = ei;
        if (e->proven) {
            result = e->proven - 1;
            break;
        }
        if (F(is_over)(c, &st)) {
            result = F(winner)(c, &st);
            if (pr->solver) {
                e->proven = (uint8_t)(result + 1);
                proven_at = depth - 1;
            }
            break;
        }
        if (e->child >= 0) {
            node = e->child;
            continue;
        }
        if (!e->visits || depth >= MAXPATH) break;
        int child = F(new_node)(c, t, &st);
        if (child < 0) break;
        t->edges[ei].child = child;
        if (t->nodes[child].solved) { /* the exact solver settled it at once */
            result = t->nodes[child].solved - 1;
            if (result == PROVEN_DRAW - 1) result = DRAW;
            t->edges[ei].proven = t->nodes[child].solved;
            proven_at = depth - 1;
            break;
        }
        node = child;
    }
    if (result < 0) {
        nk += F(playout)(c, &st, &t->rng, keys + nk, NULL);
        result = F(winner)(c, &st);
    }
    float rewards[2];
    if (result == DRAW) {
        rewards[0] = rewards[1] = 0.5f;
    } else {
        rewards[result] = 1.0f;
        rewards[1 - result] = 0.0f;
    }
    /* Each (move, colour) once, at its last ply: it was played at or after ply d
       exactly when that ply is >= d. */
    uint32_t stamp = ++t->iter;
    int np = 0;
    int *played_ply = t->played_ply, *played_key = t->played_key;
    for (int ply = nk - 1; ply >= 0; ply--) {
        int key = keys[ply];
        if (t->stamp[key] != stamp) {
            t->stamp[key] = stamp;
            played_ply[np] = ply;
            played_key[np++] = key;
        }
    }
    for (int d = 0; d < depth; d++) {
        Node *nd = &t->nodes[path_node[d]];
        Edge *e = &t->edges[path_edge[d]];
        nd->total++;
        e->visits++;
        e->wins += rewards[nd->turn];
        if (nd->amaf < 0) {
            if (nd->total < (uint32_t)pr->amaf_from) continue;
            nd->amaf = tree_amaf(t);
            if (nd->amaf < 0) continue;
        }
        Amaf *table = &t->amaf[(int64_t)nd->amaf * t->table];
        for (int j = 0; j < np; j++) {
            if (played_ply[j] < d) break;
            Amaf *a = &table[played_key[j]];
            a->w += rewards[played_key[j] & 1];
            a->n += 1.0f;
        }
    }
    for (int d = proven_at; d >= 0; d--) {
        Node *nd = &t->nodes[path_node[d]];
        int proof = F(node_proof)(t, nd);
        if (!proof) break;
        nd->solved = (uint8_t)proof;
        if (d > 0)
            t->edges[path_edge[d - 1]].proven = (uint8_t)proof;
        else
            t->root_solved = proof;
    }
}

static void F(run_tree)(const Ctx *c, const Params *pr, Tree *t, Shared *sh)
{
    while (!atomic_load_explicit(&sh->stop, memory_order_relaxed)) {
        if (t->target && t->playouts >= t->target) break;
        /* A root proven through its edges (which say the move) ends a timed search. */
        if (t->root_solved && !t->target && F(node_proof)(t, &t->nodes[0])) {
            /* Proven: a timed search has nothing left to find (a playout budget is
               still spent, for searches that must be reproducible). */
            atomic_store(&sh->stop, 1);
            break;
        }
        if (sh->deadline > 0.0 && (t->playouts & 15) == 0 && now_seconds() >= sh->deadline) break;
        F(iterate)(c, pr, t);
        atomic_fetch_add_explicit(&sh->playouts, 1, memory_order_relaxed);
        t->playouts++;
    }
}

/* Tree reuse: the subtree below the moves just played becomes the whole tree, copied
   into fresh arrays (so the memory of the rest comes back); a tree that never tried
   those moves starts again from the new position. */
static int32_t F(copy_node)(Tree *t, const Node *old_nodes, const Edge *old_edges,
                            const Amaf *old_amaf, int32_t id)
{
    const Node *o = &old_nodes[id];
    int32_t nid = (int32_t)t->nnodes++;
    Node *n = &t->nodes[nid];
    *n = *o;
    n->edges = (int32_t)t->nedges;
    t->nedges += o->nedges;
    memcpy(&t->edges[n->edges], &old_edges[o->edges], sizeof(Edge) * o->nedges);
    if (o->amaf >= 0) {
        n->amaf = (int32_t)t->namaf++;
        memcpy(&t->amaf[(int64_t)n->amaf * t->table], &old_amaf[(int64_t)o->amaf * t->table],
               sizeof(Amaf) * (size_t)t->table);
    }
    for (int i = 0; i < o->nedges; i++) {
        int32_t child = old_edges[o->edges + i].child;
        if (child >= 0) {
            int32_t copied = F(copy_node)(t, old_nodes, old_edges, old_amaf, child);
            t->edges[t->nodes[nid].edges + i].child = copied;
        }
    }
    return nid;
}

static int F(tree_advance)(const Ctx *c, Tree *t, const int *moves, int count)
{
    State st;
    memcpy(&st, t->root, sizeof st);
    int32_t node = 0;
    for (int k = 0; k < count; k++) {
        int32_t next = -1;
        if (node >= 0) {
            Node *nd = &t->nodes[node];
            for (int i = 0; i < nd->nedges; i++)
                if (t->edges[nd->edges + i].move == moves[k]) next = t->edges[nd->edges + i].child;
        }
        F(apply)(c, &st, moves[k]);
        node = next;
    }
    /* The copy is made beside the old tree, so it is made only from a tree that uses
       at most half of each of its arrays: old and new together stay within the bound. */
    int keep = node > 0 && !F(is_over)(c, &st) && t->nnodes * 2 <= t->cap_nodes &&
               t->nedges * 2 <= t->cap_edges && t->namaf * 2 <= t->cap_amaf;
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
        t->nnodes = t->nedges = t->namaf = 0;
        return -1;
    }
    t->nnodes = t->nedges = t->namaf = 0;
    t->root_solved = 0;
    memcpy(t->root, &st, sizeof st);
    if (keep) {
        F(copy_node)(t, old_nodes, old_edges, old_amaf, node);
        if (t->nodes[0].amaf < 0) t->nodes[0].amaf = tree_amaf(t);
        t->root_solved = t->nodes[0].solved;
    } else {
        int exact = t->exact;
        t->exact = 0;
        if (F(new_node)(c, t, &st) >= 0) t->nodes[0].amaf = tree_amaf(t);
        t->exact = exact;
    }
    free(old_nodes);
    free(old_edges);
    free(old_amaf);
    return t->nnodes ? 0 : -1;
}
