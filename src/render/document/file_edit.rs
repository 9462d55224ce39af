//! `file_edit`: the diff view of a change to a file, under its header and status.

use std::hash::Hash;

use super::super::diff::{diff_view, push_header, push_side_by_side, push_unified};
use super::super::escape::Markup;
use super::super::parts::{Part, Slot};
use super::super::{DiffMode, RenderOptions};
use super::{Key, status_badge};
use crate::model::{Document, FileEditMeta};

pub(super) const PARTS: &[Part] = &[Part::Head, Part::Body];

const HEAD: Slot = Slot {
    part: Part::Head,
    tag: "div",
    class: "ds-edit-head",
};

const BODY: Slot = Slot {
    part: Part::Body,
    tag: "div",
    class: "ds-edit-body",
};

pub(super) fn render(doc: &Document, meta: &FileEditMeta, opts: &RenderOptions, out: &mut String) {
    HEAD.wrap(out, |out| part(doc, meta, Part::Head, opts, out));
    out.raw("\n");
    BODY.wrap(out, |out| part(doc, meta, Part::Body, opts, out));
    out.raw("\n");
}

pub(super) fn part(
    doc: &Document,
    meta: &FileEditMeta,
    part: Part,
    opts: &RenderOptions,
    out: &mut String,
) {
    let view = diff_view(meta, doc.content.as_deref());
    match part {
        Part::Head => {
            push_header(out, &view, opts.locale);
            if let Some(status) = meta.status {
                status_badge(out, status, opts);
                out.raw("\n");
            }
            if let Some(err) = &meta.error {
                out.raw("<div class=\"ds-error-message\">")
                    .text(err)
                    .raw("</div>\n");
            }
        }
        Part::Body => {
            if matches!(opts.diff_mode, DiffMode::Both | DiffMode::Unified) {
                push_unified(out, &view, opts.locale);
            }
            if matches!(opts.diff_mode, DiffMode::Both | DiffMode::SideBySide) {
                push_side_by_side(out, &view, opts.locale);
            }
        }
        _ => {}
    }
}

/// What the body is drawn from.
pub(super) fn body_key(doc: &Document, meta: &FileEditMeta, h: &mut Key) {
    (
        meta.operation as u8,
        &meta
            .diff
            .as_ref()
            .map(|d| (&d.old_string, &d.new_string, d.start_line)),
        &meta.diff_string,
        &doc.content,
    )
        .hash(h);
}
