//! Maximum matching in a general graph (Edmonds' blossom algorithm): the
//! Dutch system asks, for every candidate pairing of a bracket, whether the
//! players left over can still all be paired (its completion criterion), and
//! in a field of players who may meet only some others that is a question of
//! a perfect matching, which a search by hand answers only in exponential
//! time.

/// No partner.
const NONE: usize = usize::MAX;

/// A graph on `0..n` being matched.
struct Blossom<'a> {
    adj: &'a [Vec<usize>],
    mate: Vec<usize>,
    parent: Vec<usize>,
    base: Vec<usize>,
    used: Vec<bool>,
    in_blossom: Vec<bool>,
    queue: Vec<usize>,
}

impl Blossom<'_> {
    /// The lowest common ancestor of `a` and `b` in the alternating tree.
    fn lca(&self, mut a: usize, mut b: usize) -> usize {
        let mut seen = vec![false; self.adj.len()];
        loop {
            a = self.base[a];
            seen[a] = true;
            if self.mate[a] == NONE {
                break;
            }
            a = self.parent[self.mate[a]];
        }
        loop {
            b = self.base[b];
            if seen[b] {
                return b;
            }
            b = self.parent[self.mate[b]];
        }
    }

    /// Marks the path from `v` up to the blossom's base `b`.
    fn mark_path(&mut self, mut v: usize, b: usize, mut child: usize) {
        while self.base[v] != b {
            self.in_blossom[self.base[v]] = true;
            self.in_blossom[self.base[self.mate[v]]] = true;
            self.parent[v] = child;
            child = self.mate[v];
            v = self.parent[self.mate[v]];
        }
    }

    /// An augmenting path from the free vertex `root`: its far end.
    fn find_path(&mut self, root: usize) -> Option<usize> {
        let n = self.adj.len();
        self.used.iter_mut().for_each(|u| *u = false);
        self.parent.iter_mut().for_each(|p| *p = NONE);
        for (i, b) in self.base.iter_mut().enumerate() {
            *b = i;
        }
        self.used[root] = true;
        self.queue.clear();
        self.queue.push(root);
        let mut head = 0;
        while head < self.queue.len() {
            let v = self.queue[head];
            head += 1;
            for &to in &self.adj[v] {
                if self.base[v] == self.base[to] || self.mate[v] == to {
                    continue;
                }
                if to == root || (self.mate[to] != NONE && self.parent[self.mate[to]] != NONE) {
                    let b = self.lca(v, to);
                    self.in_blossom.iter_mut().for_each(|x| *x = false);
                    self.mark_path(v, b, to);
                    self.mark_path(to, b, v);
                    for i in 0..n {
                        if self.in_blossom[self.base[i]] {
                            self.base[i] = b;
                            if !self.used[i] {
                                self.used[i] = true;
                                self.queue.push(i);
                            }
                        }
                    }
                } else if self.parent[to] == NONE {
                    self.parent[to] = v;
                    if self.mate[to] == NONE {
                        return Some(to);
                    }
                    let m = self.mate[to];
                    self.used[m] = true;
                    self.queue.push(m);
                }
            }
        }
        None
    }
}

/// A maximum matching of the graph with adjacency lists `adj`: each
/// vertex's partner, if any.
pub fn maximum(adj: &[Vec<usize>]) -> Vec<Option<usize>> {
    let n = adj.len();
    let mut g = Blossom {
        adj,
        mate: vec![NONE; n],
        parent: vec![NONE; n],
        base: (0..n).collect(),
        used: vec![false; n],
        in_blossom: vec![false; n],
        queue: Vec::with_capacity(n),
    };
    // A greedy start saves most of the searches.
    for (v, near) in adj.iter().enumerate() {
        if g.mate[v] == NONE {
            if let Some(&u) = near.iter().find(|&&u| g.mate[u] == NONE) {
                g.mate[u] = v;
                g.mate[v] = u;
            }
        }
    }
    for root in 0..n {
        if g.mate[root] != NONE {
            continue;
        }
        if let Some(mut v) = g.find_path(root) {
            while v != NONE {
                let pv = g.parent[v];
                let next = g.mate[pv];
                g.mate[v] = pv;
                g.mate[pv] = v;
                v = next;
            }
        }
    }
    g.mate
        .into_iter()
        .map(|m| (m != NONE).then_some(m))
        .collect()
}

/// The number of pairs of a maximum matching.
pub fn size(adj: &[Vec<usize>]) -> usize {
    maximum(adj).iter().filter(|m| m.is_some()).count() / 2
}

#[cfg(test)]
mod tests {
    use super::*;

    fn graph(n: usize, edges: &[(usize, usize)]) -> Vec<Vec<usize>> {
        let mut adj = vec![vec![]; n];
        for &(a, b) in edges {
            adj[a].push(b);
            adj[b].push(a);
        }
        adj
    }

    /// An odd cycle with a tail: a greedy matching takes 1–2 and strands
    /// 0 and 5; only a path through the blossom {1,2,3,4,5}… finds three.
    #[test]
    fn a_blossom_is_shrunk_to_find_the_perfect_matching() {
        let adj = graph(6, &[(1, 2), (2, 3), (3, 4), (4, 5), (5, 1), (0, 1), (4, 0)]);
        let m = maximum(&adj);
        assert_eq!(size(&adj), 3, "{m:?}");
        for (v, p) in m.iter().enumerate() {
            let p = p.expect("everyone matched");
            assert_eq!(m[p], Some(v));
            assert!(adj[v].contains(&p));
        }
    }

    /// Brute force on every graph of 6 vertices drawn from a fixed seed.
    #[test]
    fn the_size_equals_a_brute_force_count_on_random_graphs() {
        fn brute(adj: &[Vec<usize>], free: u32) -> usize {
            let Some(v) = (0..adj.len()).find(|&v| free & (1 << v) != 0) else {
                return 0;
            };
            let rest = free & !(1 << v);
            let mut best = brute(adj, rest);
            for &u in &adj[v] {
                if rest & (1 << u) != 0 {
                    best = best.max(1 + brute(adj, rest & !(1 << u)));
                }
            }
            best
        }
        let mut seed: u64 = 7;
        for _ in 0..300 {
            let n = 7;
            let mut edges = vec![];
            for a in 0..n {
                for b in a + 1..n {
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    if (seed >> 33).is_multiple_of(3) {
                        edges.push((a, b));
                    }
                }
            }
            let adj = graph(n, &edges);
            assert_eq!(size(&adj), brute(&adj, (1 << n) - 1), "{edges:?}");
        }
    }
}
