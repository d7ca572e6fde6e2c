//! The game tree: every move tried from every position, with its time. A node's first child
//! is its main line, the others are variations; each node also remembers which child the
//! line shown goes on with (the one last visited), so stepping forward follows it.
//!
//! The tree only stores; [`super::Game`] checks every move against the rules before it
//! enters.

use super::{GameResult, MoveRecord};
use crate::Move;

/// A node of the tree; the root (the start position) is [`ROOT`]. Ids stay valid while the
/// game lives (a deleted node's id is never reused).
pub type NodeId = usize;

/// The start position.
pub const ROOT: NodeId = 0;

#[derive(Clone, Debug)]
struct Node {
    /// The move that leads here (`None` for the root).
    rec: Option<MoveRecord>,
    parent: NodeId,
    children: Vec<NodeId>,
    /// Which child the line shown goes on with (an index into `children`).
    next: usize,
    /// A resignation or forbidden-move loss that ended the game here (the moves alone do not
    /// show it).
    ended: Option<GameResult>,
    /// False once deleted.
    alive: bool,
}

impl Node {
    fn new(rec: Option<MoveRecord>, parent: NodeId) -> Node {
        Node { rec, parent, children: Vec::new(), next: 0, ended: None, alive: true }
    }
}

#[derive(Clone, Debug)]
pub struct Tree {
    nodes: Vec<Node>,
}

impl Default for Tree {
    fn default() -> Tree {
        Tree::new()
    }
}

impl Tree {
    /// A tree with only the root.
    pub fn new() -> Tree {
        Tree { nodes: vec![Node::new(None, ROOT)] }
    }

    fn node(&self, id: NodeId) -> Option<&Node> {
        self.nodes.get(id).filter(|n| n.alive)
    }

    /// Whether `id` names a node of the tree (not deleted).
    pub fn contains(&self, id: NodeId) -> bool {
        self.node(id).is_some()
    }

    /// The move leading to `id` (`None` for the root or an unknown id).
    pub fn record(&self, id: NodeId) -> Option<&MoveRecord> {
        self.node(id)?.rec.as_ref()
    }

    /// The parent of `id` (`None` for the root or an unknown id).
    pub fn parent(&self, id: NodeId) -> Option<NodeId> {
        self.node(id).filter(|_| id != ROOT).map(|n| n.parent)
    }

    /// The children of `id`, the main line first.
    pub fn children(&self, id: NodeId) -> &[NodeId] {
        self.node(id).map_or(&[], |n| &n.children)
    }

    /// The child of `id` reached by `mv`, if that move was tried there.
    pub fn child_with(&self, id: NodeId, mv: Move) -> Option<NodeId> {
        self.children(id).iter().copied().find(|&c| self.record(c).is_some_and(|r| r.mv == mv))
    }

    /// The child the line shown goes on with.
    pub fn next(&self, id: NodeId) -> Option<NodeId> {
        let n = self.node(id)?;
        n.children.get(n.next).or(n.children.first()).copied()
    }

    pub fn ended(&self, id: NodeId) -> Option<&GameResult> {
        self.node(id)?.ended.as_ref()
    }

    pub(super) fn set_ended(&mut self, id: NodeId, ended: Option<GameResult>) {
        if let Some(n) = self.nodes.get_mut(id) {
            n.ended = ended;
        }
    }

    /// Adds `rec` as the last child of `parent` (the main line when it is the first).
    pub(super) fn add(&mut self, parent: NodeId, rec: MoveRecord) -> NodeId {
        let id = self.nodes.len();
        self.nodes.push(Node::new(Some(rec), parent));
        self.nodes[parent].children.push(id);
        id
    }

    /// Makes the line shown go through `id`: each node on its path goes on with it.
    pub(super) fn follow(&mut self, id: NodeId) {
        let mut child = id;
        while let Some(parent) = self.parent(child) {
            let n = &mut self.nodes[parent];
            n.next = n.children.iter().position(|&c| c == child).unwrap_or(0);
            child = parent;
        }
    }

    /// The nodes from the root (excluded) to `id`, in order.
    pub fn path(&self, id: NodeId) -> Vec<NodeId> {
        let mut path = Vec::new();
        let mut at = id;
        while let Some(parent) = self.parent(at) {
            path.push(at);
            at = parent;
        }
        path.reverse();
        path
    }

    /// How many moves lead from the root to `id`.
    pub fn depth(&self, id: NodeId) -> usize {
        let mut depth = 0;
        let mut at = id;
        while let Some(parent) = self.parent(at) {
            depth += 1;
            at = parent;
        }
        depth
    }

    /// The line shown through `id`: its path, then the remembered continuation to a leaf.
    pub fn line_through(&self, id: NodeId) -> Vec<NodeId> {
        let mut line = self.path(id);
        let mut at = id;
        while let Some(next) = self.next(at) {
            line.push(next);
            at = next;
        }
        line
    }

    /// The main line: each node's first child, from the root to a leaf.
    pub fn main_line(&self) -> Vec<NodeId> {
        let mut line = Vec::new();
        let mut at = ROOT;
        while let Some(&first) = self.children(at).first() {
            line.push(first);
            at = first;
        }
        line
    }

    /// Whether `id` lies on the main line.
    pub fn on_main_line(&self, id: NodeId) -> bool {
        let mut at = id;
        while let Some(parent) = self.parent(at) {
            if self.children(parent).first() != Some(&at) {
                return false;
            }
            at = parent;
        }
        self.contains(id)
    }

    /// Whether `ancestor` is `id` or lies on its path.
    pub fn is_ancestor(&self, ancestor: NodeId, id: NodeId) -> bool {
        let mut at = id;
        loop {
            if at == ancestor {
                return true;
            }
            match self.parent(at) {
                Some(p) => at = p,
                None => return false,
            }
        }
    }

    /// Makes the line through `id` the main line: each node on its path becomes its
    /// parent's first child (the other children keep their order).
    pub(super) fn promote(&mut self, id: NodeId) {
        let mut child = id;
        while let Some(parent) = self.parent(child) {
            let n = &mut self.nodes[parent];
            if let Some(i) = n.children.iter().position(|&c| c == child) {
                n.children.remove(i);
                n.children.insert(0, child);
                // The line shown keeps going where it went.
                n.next = match n.next {
                    x if x == i => 0,
                    x if x < i => x + 1,
                    x => x,
                };
            }
            child = parent;
        }
    }

    /// Deletes `id` and everything after it (not the root).
    pub(super) fn remove(&mut self, id: NodeId) {
        let Some(parent) = self.parent(id) else { return };
        let n = &mut self.nodes[parent];
        if let Some(i) = n.children.iter().position(|&c| c == id) {
            n.children.remove(i);
            if n.next >= i && n.next > 0 {
                n.next -= 1;
            }
        }
        let mut todo = vec![id];
        while let Some(at) = todo.pop() {
            let node = &mut self.nodes[at];
            node.alive = false;
            todo.append(&mut node.children);
        }
    }

    /// Every node but the root, each after its parent, children in order (depth first):
    /// the order a save writes them in.
    pub fn preorder(&self) -> Vec<NodeId> {
        let mut order = Vec::new();
        let mut todo: Vec<NodeId> = self.children(ROOT).iter().rev().copied().collect();
        while let Some(at) = todo.pop() {
            order.push(at);
            todo.extend(self.children(at).iter().rev());
        }
        order
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Color, Point};

    fn rec(x: u8) -> MoveRecord {
        MoveRecord { mv: Move::Place(Point::new(x, 0)), color: Color::Black, ms: 0 }
    }

    #[test]
    fn variations_promotion_and_deletion() {
        let mut t = Tree::new();
        let a = t.add(ROOT, rec(0));
        let b = t.add(a, rec(1));
        let c = t.add(a, rec(2)); // a variation at the second move
        let d = t.add(c, rec(3));
        assert_eq!(t.main_line(), vec![a, b]);
        assert_eq!(t.line_through(a), vec![a, b], "the first child until another is visited");
        t.follow(d);
        assert_eq!(t.line_through(a), vec![a, c, d]);
        assert!(!t.on_main_line(d) && t.on_main_line(b));
        assert_eq!(t.child_with(a, rec(2).mv), Some(c));
        assert_eq!(t.preorder(), vec![a, b, c, d]);
        t.promote(d);
        assert_eq!(t.main_line(), vec![a, c, d]);
        assert_eq!(t.children(a), &[c, b], "the old main line is kept as a variation");
        assert_eq!(t.line_through(a), vec![a, c, d], "the line shown is unchanged");
        t.remove(c);
        assert!(!t.contains(c) && !t.contains(d));
        assert_eq!(t.main_line(), vec![a, b]);
        assert_eq!(t.path(b), vec![a, b]);
        assert_eq!(t.depth(b), 2);
        assert!(t.is_ancestor(a, b) && !t.is_ancestor(b, a));
        assert_eq!(t.parent(ROOT), None);
        assert_eq!(t.record(99), None);
    }
}
