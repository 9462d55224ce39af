//! Streams a transcript file through the whole pipeline natively, the way the browser
//! does: `push` a chunk, pull the patches in the wire form, repeat; then `finish`.
//! For profiling (`perf record`) the streaming path without WebAssembly in the way.
//!
//! ```text
//! cargo run --release -p docstream-html --example stream -- FILE [CHUNK_BYTES] [ROUNDS]
//! ```

use std::time::Instant;

use docstream_core::{DocStream, Options};
use docstream_html::patch::PatchWriter;
use docstream_html::{HtmlView, RenderOptions, render_conversation};

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args
        .next()
        .expect("usage: stream FILE [CHUNK_BYTES] [ROUNDS]");
    let chunk: usize = args.next().map_or(64, |s| s.parse().expect("chunk bytes"));
    let rounds: usize = args.next().map_or(1, |s| s.parse().expect("rounds"));
    let input = std::fs::read(&path).expect("readable input");
    for _ in 0..rounds {
        let start = Instant::now();
        let mut stream = DocStream::new(Options::default());
        let mut view = HtmlView::new(RenderOptions::default());
        let mut wire = PatchWriter::new();
        let mut patch_bytes = 0usize;
        for c in input.chunks(chunk) {
            stream.push(c).expect("push");
            if stream.has_changes() {
                view.update_into(stream.conversation(), stream.changes(), &mut wire);
                stream.clear_changes();
                patch_bytes += wire.take().len();
            }
        }
        stream.finish().expect("finish");
        view.update_into(stream.conversation(), stream.changes(), &mut wire);
        patch_bytes += wire.take().len();
        let streamed = start.elapsed();
        let start = Instant::now();
        let mut one = DocStream::new(Options::default());
        one.push(&input).expect("push");
        one.finish().expect("finish");
        let html = render_conversation(one.conversation(), &RenderOptions::default());
        let one_shot = start.elapsed();
        println!(
            "{} bytes in {chunk}-byte chunks: streamed {:.1} ms, one-shot {:.1} ms ({:.2}x); patches {} bytes = {:.2}x the page ({} bytes); {:?}",
            input.len(),
            streamed.as_secs_f64() * 1e3,
            one_shot.as_secs_f64() * 1e3,
            streamed.as_secs_f64() / one_shot.as_secs_f64(),
            patch_bytes,
            patch_bytes as f64 / html.len() as f64,
            html.len(),
            view.work(),
        );
    }
}
