//! `file_edit`: the diff view of a change to a file, under its header and status.

use std::hash::Hash;

use super::{Key, reason, status_badge};
use crate::diff::{DiffView, diff_view, push_header, push_side_by_side, push_unified};
use crate::escape::Markup;
use crate::parts::{Part, Slot};
use crate::{DiffMode, RenderOptions};
use docstream_model::{Document, FileEditMeta};

pub(super) const PARTS: &[Part] = &[Part::Head, Part::Status, Part::Body];

const HEAD: Slot = Slot {
    part: Part::Head,
    tag: "div",
    class: "ds-edit-head",
};

const STATUS: Slot = Slot {
    part: Part::Status,
    tag: "div",
    class: "ds-edit-status",
};

const BODY: Slot = Slot {
    part: Part::Body,
    tag: "div",
    class: "ds-edit-body",
};

/// The diff is computed once per rendering, for whichever parts need it.
pub(super) fn render(doc: &Document, meta: &FileEditMeta, opts: &RenderOptions, out: &mut String) {
    let view = diff_view(meta, doc.content.as_deref());
    HEAD.wrap(out, |out| push_header(out, &view, opts.locale));
    out.raw("\n");
    STATUS.wrap(out, |out| status(meta, opts, out));
    out.raw("\n");
    BODY.wrap(out, |out| body(&view, opts, out));
    out.raw("\n");
}

pub(super) fn part(
    doc: &Document,
    meta: &FileEditMeta,
    part: Part,
    opts: &RenderOptions,
    out: &mut String,
) {
    match part {
        Part::Head => push_header(out, &diff_view(meta, doc.content.as_deref()), opts.locale),
        Part::Status => status(meta, opts, out),
        Part::Body => body(&diff_view(meta, doc.content.as_deref()), opts, out),
        _ => {}
    }
}

fn status(meta: &FileEditMeta, opts: &RenderOptions, out: &mut String) {
    if let Some(status) = meta.status {
        status_badge(out, status, opts);
    }
    match (&meta.error, meta.status) {
        (Some(why), Some(s)) if s.refused() => reason(out, why, opts),
        (Some(err), _) => {
            out.raw("<div class=\"ds-error-message\">")
                .text(err)
                .raw("</div>");
        }
        (None, _) => {}
    }
}

fn body(view: &DiffView, opts: &RenderOptions, out: &mut String) {
    if matches!(opts.diff_mode, DiffMode::Both | DiffMode::Unified) {
        push_unified(out, view, opts.locale);
    }
    if matches!(opts.diff_mode, DiffMode::Both | DiffMode::SideBySide) {
        push_side_by_side(out, view, opts.locale);
    }
}

/// What the head (path, operation, counts) and the body (the diff) are drawn from: an
/// update that only sets the status leaves both alone, and the diff is not computed
/// again.
pub(super) fn diff_key(doc: &Document, meta: &FileEditMeta, h: &mut Key) {
    (
        meta.operation as u8,
        &meta.file_path,
        &meta.new_path,
        &meta
            .diff
            .as_ref()
            .map(|d| (&d.old_string, &d.new_string, d.start_line)),
        &meta.diff_string,
        &doc.content,
    )
        .hash(h);
}
