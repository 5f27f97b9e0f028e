//! The dependency graph of a module's attributes: the one graph that cycle
//! diagnostics, evaluation order and change propagation all walk.
//!
//! A node is an address with a value (an attribute or a variable); its
//! edges are what its resolution ([`crate::module::attribute_resolution`])
//! says it reads, kept in both directions. Besides the attributes it reads,
//! a node remembers the other addresses its resolution depended on (the
//! objects it reads whole, the references that named nothing, the ones the
//! dialect makes unknown or gives a value): when a declaration appears or
//! vanishes there, the node may resolve differently, and
//! [`DependencyGraph::affected_by`] finds it without looking at the rest.
//!
//! The graph is plain data with no database of its own: a caller sets each
//! node's targets as it resolves it ([`DependencyGraph::set_targets`]), all
//! at once for a batch or a few after an edit, and every walk is
//! iterative, since chains of references run to thousands of links.

use std::collections::{BTreeMap, VecDeque};

use hashbrown::HashTable;
use rustc_hash::{FxHashMap, FxHashSet};
use thin_vec::ThinVec;

use crate::module::{Address, Target};

/// A node's number in its graph: stable for the graph's lifetime, however
/// its edges change.
pub type NodeId = u32;

/// What an address that is not a node meant to a node's resolution.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum KeyKind {
    /// An object read whole (`local`, `service.web`): every attribute
    /// under it.
    Object,
    /// The block an attribute read was found in: a new attribute of the
    /// block (`count`) may change what a reference into it means.
    Block,
    /// A value the dialect says is not known from the configuration.
    Unknown,
    /// A root name the dialect gives a value.
    Root,
}

#[derive(Debug, Clone, Default)]
struct Node {
    address: Option<Address>,
    // Thin vectors (one word, no allocation when empty): a module keeps a
    // node per attribute, and three vectors' six spare words were half of
    // one.
    reads: ThinVec<NodeId>,
    readers: ThinVec<NodeId>,
    keys: ThinVec<(KeyKind, Address)>,
}

#[cfg(target_pointer_width = "64")]
const _: () = assert!(std::mem::size_of::<Node>() == 32, "a module keeps a node per attribute");

/// The graph; see the module's documentation.
#[derive(Debug, Clone, Default)]
pub struct DependencyGraph {
    /// Each node's id, found by its address: the table holds only the ids,
    /// and hashes and compares each through its node's address, so that an
    /// address is not kept twice (a fifth of the graph's memory).
    ids: HashTable<NodeId>,
    nodes: Vec<Node>,
    /// Whether each node's address is declared: a node whose declaration
    /// went away stays, with no edges, so that ids stay stable. Beside the
    /// nodes rather than in them, where its padding made a node a fifth
    /// larger.
    present: Vec<bool>,
    /// The nodes whose resolution read each key, by the key's address, in
    /// order so that every key under an address is one range.
    key_readers: BTreeMap<Address, Vec<NodeId>>,
    /// The nodes with a reference that names nothing: their did-you-mean
    /// may change with any new declaration.
    unresolved: FxHashSet<NodeId>,
}

impl DependencyGraph {
    pub fn new() -> DependencyGraph {
        DependencyGraph::default()
    }

    /// The node of `address`, if the graph has one.
    pub fn node(&self, address: &Address) -> Option<NodeId> {
        self.ids
            .find(address.table_hash(), |&id| self.nodes[id as usize].address.as_ref() == Some(address))
            .copied()
    }

    /// Room for `additional` more nodes, so that a graph built whole (a
    /// module's every attribute at once) has no growth's slack, which was
    /// up to half of its nodes.
    pub fn reserve(&mut self, additional: usize) {
        let nodes = &self.nodes;
        self.ids
            .reserve(additional, |&id| nodes[id as usize].address.as_ref().map_or(0, Address::table_hash));
        self.nodes.reserve_exact(additional);
        self.present.reserve_exact(additional);
    }

    /// The node of `address`, made if the graph has none.
    pub fn node_or_insert(&mut self, address: &Address) -> NodeId {
        let nodes = &self.nodes;
        let entry = self.ids.entry(
            address.table_hash(),
            |&id| nodes[id as usize].address.as_ref() == Some(address),
            |&id| nodes[id as usize].address.as_ref().map_or(0, Address::table_hash),
        );
        let vacant = match entry {
            hashbrown::hash_table::Entry::Occupied(occupied) => return *occupied.get(),
            hashbrown::hash_table::Entry::Vacant(vacant) => vacant,
        };
        let id = NodeId::try_from(self.nodes.len()).unwrap_or(NodeId::MAX);
        vacant.insert(id);
        self.nodes.push(Node { address: Some(address.clone()), ..Node::default() });
        self.present.push(false);
        id
    }

    /// The address of a node.
    pub fn address(&self, node: NodeId) -> &Address {
        static NONE: std::sync::OnceLock<Address> = std::sync::OnceLock::new();
        self.nodes
            .get(node as usize)
            .and_then(|it| it.address.as_ref())
            .unwrap_or_else(|| NONE.get_or_init(|| Address::new(Vec::<&str>::new())))
    }

    /// Whether the node's address is declared now.
    pub fn is_present(&self, node: NodeId) -> bool {
        self.present.get(node as usize).copied().unwrap_or(false)
    }

    /// Every node whose address is declared.
    pub fn nodes(&self) -> impl Iterator<Item = NodeId> + '_ {
        self.present.iter().enumerate().filter(|(_, present)| **present).map(|(id, _)| id as NodeId)
    }

    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The attributes a node reads.
    pub fn reads(&self, node: NodeId) -> &[NodeId] {
        self.nodes.get(node as usize).map_or(&[], |it| &it.reads)
    }

    /// The nodes that read a node.
    pub fn readers(&self, node: NodeId) -> &[NodeId] {
        self.nodes.get(node as usize).map_or(&[], |it| &it.readers)
    }

    /// Whether one of a node's references names nothing.
    pub fn has_unresolved(&self, node: NodeId) -> bool {
        self.unresolved.contains(&node)
    }

    /// The other addresses a node's resolution depended on.
    pub fn keys(&self, node: NodeId) -> &[(KeyKind, Address)] {
        self.nodes.get(node as usize).map_or(&[], |it| &it.keys)
    }

    /// Sets what the attribute at `address` reads, from its resolution's
    /// targets, replacing what it read before. Returns its node.
    pub fn set_targets(&mut self, address: &Address, targets: &[Target]) -> NodeId {
        self.update_targets(address, targets).0
    }

    /// [`DependencyGraph::set_targets`], saying too whether the node's
    /// edges changed: most edits change a value and not what it reads, and
    /// what was found of the graph's shape then still holds.
    pub fn update_targets(&mut self, address: &Address, targets: &[Target]) -> (NodeId, bool) {
        let id = self.node_or_insert(address);
        let mut reads = ThinVec::new();
        let mut keys = ThinVec::new();
        for target in targets {
            match target {
                Target::Attributes { objects, attrs } => {
                    keys.extend(objects.iter().map(|object| (KeyKind::Object, object.clone())));
                    for attr in attrs {
                        let read = self.node_or_insert(attr);
                        if !reads.contains(&read) {
                            reads.push(read);
                        }
                        if !matches!(attr.first(), Some("var" | "local")) {
                            let block = attr.prefix(attr.len().saturating_sub(1));
                            // The block's address as the graph already holds
                            // it, shared rather than one copy per reader.
                            let block = match self.key_readers.get_key_value(&block) {
                                Some((held, _)) => held.clone(),
                                None => block,
                            };
                            let block = (KeyKind::Block, block);
                            if !keys.contains(&block) {
                                keys.push(block);
                            }
                        }
                    }
                }
                Target::Unresolved { .. } => {}
                Target::Unknown { address } => keys.push((KeyKind::Unknown, address.clone())),
                Target::Root { name } => keys.push((KeyKind::Root, Address::new([name.clone()]))),
            }
        }
        let unresolved = targets.iter().any(|target| matches!(target, Target::Unresolved { .. }));
        let node = &self.nodes[id as usize];
        if self.present[id as usize]
            && node.reads == reads
            && node.keys == keys
            && self.unresolved.contains(&id) == unresolved
        {
            return (id, false);
        }
        self.clear_edges(id);
        if unresolved {
            self.unresolved.insert(id);
        }
        for &read in &reads {
            self.nodes[read as usize].readers.push(id);
        }
        for (_, key) in &keys {
            self.key_readers.entry(key.clone()).or_default().push(id);
        }
        reads.shrink_to_fit();
        keys.shrink_to_fit();
        self.present[id as usize] = true;
        let node = &mut self.nodes[id as usize];
        node.reads = reads;
        node.keys = keys;
        (id, true)
    }

    /// Forgets what the attribute at `address` reads and marks it as not
    /// declared (its declaration went away).
    pub fn remove(&mut self, address: &Address) {
        if let Some(id) = self.node(address) {
            self.clear_edges(id);
            self.present[id as usize] = false;
        }
    }

    fn clear_edges(&mut self, id: NodeId) {
        let node = &mut self.nodes[id as usize];
        let reads = std::mem::take(&mut node.reads);
        let keys = std::mem::take(&mut node.keys);
        for read in reads {
            if let Some(target) = self.nodes.get_mut(read as usize) {
                target.readers.retain(|&reader| reader != id);
            }
        }
        for (_, key) in keys {
            if let Some(readers) = self.key_readers.get_mut(&key) {
                readers.retain(|&reader| reader != id);
                if readers.is_empty() {
                    self.key_readers.remove(&key);
                }
            }
        }
        self.unresolved.remove(&id);
    }

    /// `seeds` and every node that reads one of them, directly or through
    /// others: what a change of the seeds' values can change.
    pub fn dependents(&self, seeds: impl IntoIterator<Item = NodeId>) -> Vec<NodeId> {
        let mut seen: FxHashSet<NodeId> = FxHashSet::default();
        let mut out = Vec::new();
        let mut queue: Vec<NodeId> = seeds.into_iter().collect();
        while let Some(id) = queue.pop() {
            if !seen.insert(id) {
                continue;
            }
            out.push(id);
            queue.extend(self.readers(id).iter().copied().filter(|reader| !seen.contains(reader)));
        }
        out
    }

    /// The nodes whose resolution may change when declarations appear or
    /// vanish at `changed`: the nodes at those addresses and their readers;
    /// the nodes that read an address that is a prefix of a changed one (a
    /// whole object that holds it, the block a new attribute, `count` among
    /// them, changes the meaning of references into) or that lies under one
    /// (references into a block that appeared or vanished); and every node
    /// with a reference that named nothing, whose did-you-mean may be the
    /// new name.
    pub fn affected_by<'a>(&self, changed: impl IntoIterator<Item = &'a Address>) -> Vec<NodeId> {
        let mut out: FxHashSet<NodeId> = self.unresolved.iter().copied().collect();
        for address in changed {
            if let Some(id) = self.node(address) {
                out.insert(id);
                out.extend(self.readers(id).iter().copied());
            }
            for n in 1..=address.len() {
                if let Some(readers) = self.key_readers.get(&address.prefix(n)) {
                    out.extend(readers.iter().copied());
                }
            }
            for (key, readers) in self.key_readers.range(address.clone()..) {
                if !key.starts_with(address) {
                    break;
                }
                out.extend(readers.iter().copied());
            }
        }
        let mut out: Vec<NodeId> = out.into_iter().collect();
        out.sort_unstable();
        out
    }

    /// The strongly connected components of more than one node, or of one
    /// node that reads itself: the reference cycles. Only the nodes of
    /// `within` are walked when it is given (a cycle through a changed node
    /// is among the nodes that depend on it). Cycles in order of their
    /// first node.
    pub fn cycles(&self, within: Option<&FxHashSet<NodeId>>) -> Vec<Vec<NodeId>> {
        if within.is_none() {
            return self.all_cycles();
        }
        let include = |id: &NodeId| within.is_none_or(|set| set.contains(id)) && self.is_present(*id);
        let mut roots: Vec<NodeId> = match within {
            Some(set) => set.iter().copied().filter(include).collect(),
            None => self.nodes().collect(),
        };
        roots.sort_unstable();
        let mut out = cycles(roots, |id| self.reads(id).iter().copied().filter(include));
        for cycle in &mut out {
            cycle.sort_unstable();
        }
        out.sort_by_key(|cycle| cycle.first().copied());
        out
    }

    /// [`Self::cycles`] over the whole graph: the same walk as [`cycles`],
    /// with its marks in arrays by node rather than in hash maps, and each
    /// node's reads borrowed rather than copied (for a module's first
    /// report, on one thread, it was a pass over every node and edge through
    /// three maps).
    fn all_cycles(&self) -> Vec<Vec<NodeId>> {
        const UNSEEN: u32 = u32::MAX;
        let mut index = vec![UNSEEN; self.nodes.len()];
        let mut low = vec![0u32; self.nodes.len()];
        let mut on_stack = vec![false; self.nodes.len()];
        let mut stack: Vec<NodeId> = Vec::new();
        // Frames of (node, the position of the next of its reads to follow).
        let mut frames: Vec<(NodeId, usize)> = Vec::new();
        let mut next_index = 0u32;
        let mut out = Vec::new();
        for root in self.nodes() {
            if index[root as usize] != UNSEEN {
                continue;
            }
            index[root as usize] = next_index;
            low[root as usize] = next_index;
            next_index += 1;
            stack.push(root);
            on_stack[root as usize] = true;
            frames.push((root, 0));
            while let Some((node, edge)) = frames.last_mut() {
                let node = *node;
                let reads = self.reads(node);
                let mut followed = None;
                while let Some(&read) = reads.get(*edge) {
                    *edge += 1;
                    if self.is_present(read) {
                        followed = Some(read);
                        break;
                    }
                }
                if let Some(next) = followed {
                    if index[next as usize] == UNSEEN {
                        index[next as usize] = next_index;
                        low[next as usize] = next_index;
                        next_index += 1;
                        stack.push(next);
                        on_stack[next as usize] = true;
                        frames.push((next, 0));
                    } else if on_stack[next as usize] {
                        low[node as usize] = low[node as usize].min(index[next as usize]);
                    }
                    continue;
                }
                frames.pop();
                let node_low = low[node as usize];
                if let Some(&(parent, _)) = frames.last() {
                    low[parent as usize] = low[parent as usize].min(node_low);
                }
                if node_low == index[node as usize] {
                    let mut component = Vec::new();
                    while let Some(member) = stack.pop() {
                        on_stack[member as usize] = false;
                        component.push(member);
                        if member == node {
                            break;
                        }
                    }
                    if component.len() > 1 || reads.contains(&node) {
                        component.sort_unstable();
                        out.push(component);
                    }
                }
            }
        }
        out.sort_by_key(|cycle| cycle.first().copied());
        out
    }

    /// The shortest path of reads from `start` back to itself, both ends
    /// included; just `start` if it is on no cycle.
    pub fn cycle_path(&self, start: NodeId) -> Vec<NodeId> {
        match shortest_cycle(start, usize::MAX, |id| self.reads(id).to_vec()) {
            CycleSearch::Found(path) => path,
            CycleSearch::NoCycle | CycleSearch::GaveUp => vec![start],
        }
    }

    /// `roots` and everything they read, dependencies before their readers
    /// (a cycle broken anywhere).
    ///
    /// The walk of [`dependencies_first`], its marks in an array by node
    /// and each node's reads borrowed rather than copied: `eval DIR` orders
    /// a whole module this way on one thread before evaluating it.
    pub fn evaluation_order(&self, roots: impl IntoIterator<Item = NodeId>) -> Vec<NodeId> {
        let mut seen = vec![false; self.nodes.len()];
        walk_dependencies_first(
            roots,
            |id| self.reads(id).iter().copied(),
            |id: NodeId| !std::mem::replace(&mut seen[id as usize], true),
        )
    }
}

/// The graph walks, over any graph given by a function from a node to the
/// nodes it reads: [`DependencyGraph`] walks its stored edges with them, and
/// the module model walks resolutions with them where it has no graph (a
/// cycle found inside an evaluation). All iterative, since chains of
/// references run to thousands of links.
///
/// The strongly connected components of more than one node, or of one node
/// that reads itself (Tarjan's algorithm), among the nodes reachable from
/// `roots`.
pub fn cycles<N, I>(roots: impl IntoIterator<Item = N>, mut reads: impl FnMut(N) -> I) -> Vec<Vec<N>>
where
    N: Copy + Eq + std::hash::Hash,
    I: IntoIterator<Item = N>,
{
    let mut index: FxHashMap<N, u32> = FxHashMap::default();
    let mut low: FxHashMap<N, u32> = FxHashMap::default();
    let mut on_stack: FxHashSet<N> = FxHashSet::default();
    let mut stack: Vec<N> = Vec::new();
    let mut next_index = 0u32;
    let mut out = Vec::new();
    for root in roots {
        if index.contains_key(&root) {
            continue;
        }
        // Frames of (node, the nodes it reads, the next one to follow).
        let mut frames: Vec<(N, Vec<N>, usize)> = vec![(root, reads(root).into_iter().collect(), 0)];
        index.insert(root, next_index);
        low.insert(root, next_index);
        next_index += 1;
        stack.push(root);
        on_stack.insert(root);
        while let Some((node, edges, edge)) = frames.last_mut() {
            let node = *node;
            if let Some(&next) = edges.get(*edge) {
                *edge += 1;
                match index.get(&next) {
                    None => {
                        index.insert(next, next_index);
                        low.insert(next, next_index);
                        next_index += 1;
                        stack.push(next);
                        on_stack.insert(next);
                        frames.push((next, reads(next).into_iter().collect(), 0));
                    }
                    Some(&next_index_of) if on_stack.contains(&next) => {
                        let current = low[&node];
                        low.insert(node, current.min(next_index_of));
                    }
                    Some(_) => {}
                }
                continue;
            }
            let reads_itself = edges.contains(&node);
            frames.pop();
            let node_low = low[&node];
            if let Some((parent, _, _)) = frames.last() {
                let parent_low = low[parent];
                low.insert(*parent, parent_low.min(node_low));
            }
            if node_low == index[&node] {
                let mut component = Vec::new();
                while let Some(member) = stack.pop() {
                    on_stack.remove(&member);
                    component.push(member);
                    if member == node {
                        break;
                    }
                }
                if component.len() > 1 || reads_itself {
                    component.reverse();
                    out.push(component);
                }
            }
        }
    }
    out
}

/// What [`shortest_cycle`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CycleSearch<N> {
    /// The path, from the start round to it.
    Found(Vec<N>),
    /// The start is on no cycle.
    NoCycle,
    /// The walk visited its limit of nodes without coming back.
    GaveUp,
}

/// The shortest path of reads from `start` back to itself, both ends
/// included (`local.a -> local.b -> local.a`), by a breadth-first walk
/// that gives up after visiting `limit` nodes.
pub fn shortest_cycle<N, I>(start: N, limit: usize, mut reads: impl FnMut(N) -> I) -> CycleSearch<N>
where
    N: Copy + Eq + std::hash::Hash,
    I: IntoIterator<Item = N>,
{
    let mut came_from: FxHashMap<N, N> = FxHashMap::default();
    let mut queue = VecDeque::from([start]);
    let mut visited = 0;
    while let Some(node) = queue.pop_front() {
        visited += 1;
        if visited > limit {
            return CycleSearch::GaveUp;
        }
        for next in reads(node) {
            if next == start {
                let mut path = vec![node];
                let mut current = node;
                while current != start {
                    let Some(&previous) = came_from.get(&current) else { break };
                    path.push(previous);
                    current = previous;
                }
                path.reverse();
                path.push(start);
                return CycleSearch::Found(path);
            }
            if let std::collections::hash_map::Entry::Vacant(entry) = came_from.entry(next) {
                entry.insert(node);
                queue.push_back(next);
            }
        }
    }
    CycleSearch::NoCycle
}

/// `roots` and everything they read, dependencies before their readers (a
/// cycle broken anywhere): the order in which evaluating each asks only
/// for values already known.
pub fn dependencies_first<N, I>(roots: impl IntoIterator<Item = N>, reads: impl FnMut(N) -> I) -> Vec<N>
where
    N: Copy + Eq + std::hash::Hash,
    I: IntoIterator<Item = N>,
    I::IntoIter: DoubleEndedIterator,
{
    let mut seen: FxHashSet<N> = FxHashSet::default();
    walk_dependencies_first(roots, reads, |node| seen.insert(node))
}

/// [`dependencies_first`] with its marks kept by `first_visit`, which
/// marks a node and says whether it was unmarked.
fn walk_dependencies_first<N, I>(
    roots: impl IntoIterator<Item = N>,
    mut reads: impl FnMut(N) -> I,
    mut first_visit: impl FnMut(N) -> bool,
) -> Vec<N>
where
    N: Copy,
    I: IntoIterator<Item = N>,
    I::IntoIter: DoubleEndedIterator,
{
    let mut order = Vec::new();
    let mut stack = Vec::new();
    for root in roots {
        if !first_visit(root) {
            continue;
        }
        stack.push((root, false));
        while let Some((node, dependencies_done)) = stack.pop() {
            if dependencies_done {
                order.push(node);
                continue;
            }
            stack.push((node, true));
            for read in reads(node).into_iter().rev() {
                if first_visit(read) {
                    stack.push((read, false));
                }
            }
        }
    }
    order
}

#[cfg(test)]
mod tests {

    use super::*;

    /// A graph of `edges` between attributes `local.n0`, `local.n1`, …,
    /// some of them read but never set (not present), one removed.
    fn graph(nodes: usize, edges: &[(usize, usize)]) -> DependencyGraph {
        let address = |n: usize| Address::new(["local".to_string(), format!("n{n}")]);
        let mut graph = DependencyGraph::default();
        for node in 0..nodes {
            let attrs: crate::module::Addresses =
                edges.iter().filter(|(from, _)| *from == node).map(|&(_, to)| address(to)).collect();
            graph.set_targets(&address(node), &[Target::Attributes { objects: ThinVec::new(), attrs }]);
        }
        graph.remove(&address(3));
        graph
    }

    /// A linear congruential sequence: the same numbers on every run.
    struct Sequence(u64);

    impl Sequence {
        /// The next number below `bound`.
        fn next(&mut self, bound: usize) -> usize {
            self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (self.0 >> 33) as usize % bound
        }
    }

    /// A pseudo-random graph of up to 31 nodes, with self-reads, reads of
    /// nodes never set (ids past its nodes) and of the removed node 3, and
    /// its edges.
    fn random_graph(sequence: &mut Sequence) -> (Vec<(usize, usize)>, DependencyGraph) {
        let nodes = 2 + sequence.next(30);
        let edges: Vec<(usize, usize)> =
            (0..sequence.next(3 * nodes)).map(|_| (sequence.next(nodes), sequence.next(nodes + 3))).collect();
        let graph = graph(nodes, &edges);
        (edges, graph)
    }

    #[test]
    fn whole_graph_cycles_are_those_found_within_every_node() {
        let mut sequence = Sequence(7);
        let mut found = 0;
        for _ in 0..200 {
            let (edges, graph) = random_graph(&mut sequence);
            let every: FxHashSet<NodeId> = (0..graph.len() as NodeId).collect();
            let whole = graph.cycles(None);
            assert_eq!(whole, graph.cycles(Some(&every)), "{edges:?}");
            found += whole.len();
        }
        assert!(found > 50, "the graphs have cycles to find: {found}");
    }

    #[test]
    fn the_graph_orders_dependencies_first_as_the_general_walk_does() {
        // Pseudo-random graphs, ordered from a few roots and from every
        // node, with repeated roots.
        let mut sequence = Sequence(11);
        let mut ordered = 0;
        for _ in 0..200 {
            let (edges, graph) = random_graph(&mut sequence);
            let some: Vec<NodeId> =
                (0..1 + sequence.next(4)).map(|_| sequence.next(graph.len()) as NodeId).collect();
            for roots in [some, (0..graph.len() as NodeId).collect()] {
                let general = dependencies_first(roots.iter().copied(), |id| graph.reads(id).to_vec());
                assert_eq!(
                    graph.evaluation_order(roots.iter().copied()),
                    general,
                    "{edges:?} from {roots:?}"
                );
                ordered += general.len();
            }
        }
        assert!(ordered > 1000, "the walks order nodes: {ordered}");
    }

    #[test]
    fn a_cycle_through_a_removed_node_is_broken() {
        let graph = graph(5, &[(0, 1), (1, 0), (2, 3), (3, 2), (4, 4)]);
        let cycles: Vec<Vec<Address>> = graph
            .cycles(None)
            .into_iter()
            .map(|cycle| cycle.into_iter().map(|node| graph.address(node).clone()).collect())
            .collect();
        let address = |n: usize| Address::new(["local".to_string(), format!("n{n}")]);
        assert_eq!(cycles, vec![vec![address(0), address(1)], vec![address(4)]]);
    }
}
