//! The plan view: todos in an order that respects their dependencies, with levels,
//! progress and problems (unknown or cyclic dependencies are shown, not fatal).

use std::collections::HashMap;

use serde::Serialize;

use docstream_model::{PlanMeta, PlanTodo, TodoStatus};

/// One todo of the plan view.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct PlanItem {
    /// The todo's id.
    pub id: String,
    /// Its text.
    pub content: String,
    /// Its status, after the updates.
    pub status: TodoStatus,
    /// The ids it waits for.
    pub dependencies: Vec<String>,
    /// Depth in the dependency graph (0: waits for nothing).
    pub level: usize,
}

/// A problem of the plan's dependency graph.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PlanProblem {
    /// A todo names a dependency no todo has.
    UnknownDependency {
        /// The todo.
        todo: String,
        /// The missing id.
        dependency: String,
    },
    /// A todo is part of a cycle.
    Cycle {
        /// The todo.
        todo: String,
    },
}

/// The plan view object.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct PlanView {
    /// The plan's title.
    pub title: String,
    /// The overview (Markdown).
    pub overview: String,
    /// Todos in dependency order (stable: written order among the ready ones).
    pub todos: Vec<PlanItem>,
    /// Todos completed.
    pub done: usize,
    /// All todos.
    pub total: usize,
    /// Problems found.
    pub problems: Vec<PlanProblem>,
}

/// Builds the plan view of a plan as it stands (the normaliser has applied the
/// `todo_update`s that follow it).
pub(crate) fn plan_view(meta: &PlanMeta) -> PlanView {
    let todos: &[PlanTodo] = &meta.todos;
    let index: HashMap<&str, usize> = todos
        .iter()
        .enumerate()
        .map(|(i, t)| (t.id.as_str(), i))
        .collect();
    let mut problems = Vec::new();
    for t in todos {
        for d in &t.dependencies {
            if !index.contains_key(d.as_str()) {
                problems.push(PlanProblem::UnknownDependency {
                    todo: t.id.clone(),
                    dependency: d.clone(),
                });
            }
        }
    }
    // Kahn's algorithm, taking the first ready todo in written order each step.
    let n = todos.len();
    let mut placed = vec![false; n];
    let mut level = vec![0usize; n];
    let mut order = Vec::with_capacity(n);
    loop {
        let next = (0..n).find(|&i| {
            !placed[i]
                && todos[i]
                    .dependencies
                    .iter()
                    .all(|d| index.get(d.as_str()).is_none_or(|&j| placed[j]))
        });
        let Some(i) = next else { break };
        placed[i] = true;
        level[i] = todos[i]
            .dependencies
            .iter()
            .filter_map(|d| index.get(d.as_str()))
            .map(|&j| level[j] + 1)
            .max()
            .unwrap_or(0);
        order.push(i);
    }
    for i in 0..n {
        if !placed[i] {
            problems.push(PlanProblem::Cycle {
                todo: todos[i].id.clone(),
            });
            order.push(i);
        }
    }
    let done = todos
        .iter()
        .filter(|t| t.status == TodoStatus::Completed)
        .count();
    PlanView {
        title: meta.title.clone(),
        overview: meta.overview.clone(),
        todos: order
            .into_iter()
            .map(|i| PlanItem {
                id: todos[i].id.clone(),
                content: todos[i].content.clone(),
                status: todos[i].status,
                dependencies: todos[i].dependencies.clone(),
                level: level[i],
            })
            .collect(),
        done,
        total: n,
        problems,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn todo(id: &str, deps: &[&str]) -> PlanTodo {
        PlanTodo {
            id: id.into(),
            content: id.into(),
            status: TodoStatus::Pending,
            dependencies: deps.iter().map(|d| d.to_string()).collect(),
        }
    }

    #[test]
    fn orders_by_dependencies_and_reports_problems() {
        let mut done = todo("a", &[]);
        done.status = TodoStatus::Completed;
        let meta = PlanMeta {
            todos: vec![
                todo("b", &["a"]),
                done,
                todo("c", &["x"]),
                todo("d", &["e"]),
                todo("e", &["d"]),
            ],
            ..PlanMeta::default()
        };
        let v = plan_view(&meta);
        let ids: Vec<&str> = v.todos.iter().map(|t| t.id.as_str()).collect();
        assert_eq!(ids, ["a", "b", "c", "d", "e"]);
        assert_eq!(v.todos[1].level, 1);
        assert_eq!((v.done, v.total), (1, 5));
        assert_eq!(v.problems.len(), 3);
    }
}
