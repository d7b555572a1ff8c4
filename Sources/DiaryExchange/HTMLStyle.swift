/// The HTML export's stylesheet, inline in the page: for the screen, and for paper
/// (`@media print`: black on white, the contents on a page of their own, no entry split across
/// pages when it fits on one, link addresses printed after their text).
enum HTMLStyle {
    static let sheet = """
        :root { color-scheme: light; }
        body { font-family: Georgia, "DejaVu Serif", "Times New Roman", serif; line-height: 1.55;
          max-width: 42em; margin: 2em auto; padding: 0 1.2em; color: #222; background: #fdfcf8; }
        h1 { font-size: 2.4em; margin: 0 0 .2em; letter-spacing: .02em; }
        .summary, .meta { color: #666; font-size: .9em; }
        .meta { margin-top: 0; }
        nav.toc { border: 1px solid #ddd; background: #fff; padding: .4em 1.5em 1em; margin: 1.5em 0 2.5em; }
        nav.toc h2 { font-size: 1.1em; text-transform: uppercase; letter-spacing: .1em; color: #666; }
        nav.toc ul { list-style: none; padding-left: 1.2em; margin: .2em 0; }
        nav.toc > ul { padding-left: 0; }
        nav.toc li.year { font-weight: bold; margin-top: .5em; }
        nav.toc li.year li { font-weight: normal; }
        nav.toc .day { display: inline-block; min-width: 4.5em; color: #666; }
        a { color: #2a5d8f; }
        h2.month { font-size: 1.3em; color: #555; border-bottom: 1px solid #ccc; margin-top: 2.5em; }
        article { margin: 1.5em 0 2.5em; }
        article h3 { font-size: 1.35em; margin-bottom: .1em; }
        .star { color: #c08a00; }
        .tag { font-family: "DejaVu Sans", Arial, sans-serif; font-size: .8em; background: #eef1f8;
          border-radius: 3px; padding: 0 .35em; }
        li > p { margin: .15em 0; }
        blockquote { border-left: 3px solid #ccc; margin-left: 0; padding-left: 1em; color: #555; }
        code, pre { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: .88em; }
        code { background: #f1eee4; padding: 0 .2em; border-radius: 2px; }
        pre { background: #f1eee4; padding: .6em .8em; white-space: pre-wrap; overflow-wrap: anywhere; }
        pre code { background: none; padding: 0; }
        pre.raw-html { background: none; border: 1px dashed #ccc; }
        .image { color: #666; font-style: italic; }
        .text { overflow-wrap: anywhere; }
        @media print {
          body { background: #fff; color: #000; max-width: none; margin: 0; padding: 0; font-size: 11pt; }
          nav.toc { border: none; padding: 0; break-after: page; }
          h2.month { break-after: avoid; }
          article { break-inside: avoid-page; }
          article h3 { break-after: avoid; }
          a { color: inherit; text-decoration: none; }
          .text a[href^="http"]::after, .text a[href^="mailto"]::after { content: " (" attr(href) ")"; font-size: .85em; }
          code, pre { background: none; }
          pre { border: 1px solid #ccc; }
        }

        """
}
