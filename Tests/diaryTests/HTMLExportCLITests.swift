import Foundation
import XCTest

/// `export --format html` with the built binary, and the page in a real browser: headless
/// Chromium renders it to PNG and PDF, and a script planted in an entry does not run.
final class HTMLExportCLITests: XCTestCase {
    private var box: DiarySandbox!

    /// Each would mark the page if it ran: the document's class, its title, or a new element.
    static let planted = """
        Planted <img src=x onerror="document.documentElement.className='pwned-img'">

        <script>document.documentElement.className='pwned-script'; document.title='pwned-title'</script>

        Inline <svg onload="document.documentElement.className='pwned-svg'"></svg> and \
        <iframe srcdoc="<script>parent.document.documentElement.className='pwned-iframe'</script>"></iframe>

        [click me](javascript:document.documentElement.className='pwned-link')

        <details open ontoggle="document.documentElement.className='pwned-toggle'">x</details>
        """

    override func setUpWithError() throws {
        box = try DiarySandbox(name: "html")
        _ = try box.initVault()
        try box.ok([
            "new", "First walk\n\nA **long** walk.\n\n- hills\n- rain", "--date", "2023-04-02", "--tag", "walk",
        ])
        try box.ok(["new", Self.planted, "--date", "2024-01-05T09:00", "--star", "--tag", "<b>x</b>"])
    }

    override func tearDown() { box = nil }

    private func export(_ extra: [String] = []) throws -> (URL, DiaryResult) {
        let file = box.root.appendingPathComponent("diary-\(UUID().uuidString.prefix(6)).html")
        let result = try box.ok(["export", "--format", "html", "-o", file.path, "--yes"] + extra)
        return (file, result)
    }

    func testOneFileOldestFirstWithTheWarning() throws {
        let (file, result) = try export()
        XCTAssertTrue(result.stderr.contains("diary: warning: the export is NOT encrypted: 2 entries"), result.stderr)
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600)
        let html = try String(contentsOf: file, encoding: .utf8)
        let first = try XCTUnwrap(html.range(of: "<h3>First walk</h3>")).lowerBound
        let planted = try XCTUnwrap(html.range(of: "<h3>Planted ")).lowerBound
        XCTAssertLessThan(first, planted, "oldest first")
        XCTAssertTrue(html.contains("<span class=\"tag\">#&lt;b&gt;x&lt;/b&gt;</span>"))

        let reversed = try String(contentsOf: try export(["--reverse"]).0, encoding: .utf8)
        XCTAssertGreaterThan(
            try XCTUnwrap(reversed.range(of: "<h3>First walk</h3>")).lowerBound,
            try XCTUnwrap(reversed.range(of: "<h3>Planted ")).lowerBound, "--reverse: newest first")
        let walks = try String(contentsOf: try export(["--tag", "walk"]).0, encoding: .utf8)
        XCTAssertFalse(walks.contains("Planted"), "export's filters")

        // Without --yes and a terminal nothing is written; an existing file stays; a directory is refused.
        let refused = try box.run(["export", "--format", "html"])
        XCTAssertEqual(refused.status, 64)
        XCTAssertEqual(refused.stdout, "")
        XCTAssertEqual(try box.run(["export", "--format", "html", "-o", file.path, "--yes"]).status, 73)
        let directory = try box.run(["export", "--format", "html", "-o", box.root.path + "/", "--yes"])
        XCTAssertEqual(directory.status, 64)
        XCTAssertTrue(directory.stderr.contains("diary.html"), directory.stderr)
        XCTAssertTrue(try box.ok(["export", "--format", "html", "--yes"]).stdout.hasPrefix("<!DOCTYPE html>"))
    }

    // MARK: In a real browser

    private func chromium() throws -> String {
        for name in ["chromium", "chromium-browser", "google-chrome"] {
            for directory in ["/usr/bin", "/usr/local/bin", "/snap/bin"] {
                let path = "\(directory)/\(name)"
                if FileManager.default.isExecutableFile(atPath: path) { return path }
            }
        }
        throw XCTSkip("headless Chromium is needed for the browser tests (Debian: apt install chromium)")
    }

    /// Runs headless Chromium on `page` with `arguments`; its stdout.
    private func browse(_ page: URL, _ arguments: [String]) throws -> String {
        let profile = box.root.appendingPathComponent("chromium-profile")
        let result = try runProgram(
            URL(fileURLWithPath: "/usr/bin/timeout"),
            [
                "120", try chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--user-data-dir=\(profile.path)", "--virtual-time-budget=3000",
            ] + arguments + [page.absoluteString],
            env: ["HOME": box.root.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        return result.stdout
    }

    func testChromiumRendersThePageToPNGAndPDF() throws {
        let (file, _) = try export()
        let png = box.root.appendingPathComponent("page.png")
        let pdf = box.root.appendingPathComponent("page.pdf")
        _ = try browse(file, ["--window-size=1000,1400", "--screenshot=\(png.path)"])
        _ = try browse(file, ["--print-to-pdf=\(pdf.path)", "--no-pdf-header-footer"])
        let pngBytes = try Data(contentsOf: png)
        XCTAssertEqual(Array(pngBytes.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "a PNG")
        XCTAssertGreaterThan(pngBytes.count, 10_000, "a page, not a blank image")
        let pdfBytes = try Data(contentsOf: pdf)
        XCTAssertEqual(String(decoding: pdfBytes.prefix(5), as: UTF8.self), "%PDF-")
        XCTAssertGreaterThan(pdfBytes.count, 10_000)
    }

    /// The planted scripts leave the page as it was: the DOM Chromium ends with has no mark and
    /// the title is the export's. A page with a real script shows that the check would see one.
    func testAPlantedScriptDoesNotRun() throws {
        let control = box.root.appendingPathComponent("control.html")
        try Data(
            "<!DOCTYPE html><html><head><title>Diary</title></head><body><script>document.documentElement.className='pwned-script'</script></body></html>"
                .utf8
        ).write(to: control)
        XCTAssertTrue(
            try browse(control, ["--dump-dom"]).contains("class=\"pwned-script\""), "the check sees a script that runs")

        let (file, _) = try export()
        let dom = try browse(file, ["--dump-dom"])
        XCTAssertTrue(dom.contains("Planted"), "the entry is there: \(dom.prefix(400))")
        XCTAssertFalse(dom.contains("class=\"pwned"), dom)
        XCTAssertTrue(dom.contains("<title>Diary</title>"), dom)
        XCTAssertFalse(dom.contains("<iframe"), "no frame was made")
        XCTAssertFalse(dom.contains("<img"), "no image was made")
        XCTAssertFalse(dom.contains("<details"))
    }

    /// An entry's photo (imported from Day One) is shown inline, the one thing the policy then
    /// allows more (`img-src data:`), and the planted scripts still do not run.
    func testAnAttachedImageShowsInlineAndNoScriptRuns() throws {
        try box.ok(["import", "--from", "dayone", ExchangeAttachmentCLITests.mediaZip.path])
        let (file, _) = try export()
        let html = try String(contentsOf: file, encoding: .utf8)
        XCTAssertTrue(html.contains("content=\"default-src 'none'; img-src data:; style-src 'unsafe-inline';"), html)
        let dom = try browse(file, ["--dump-dom"])
        XCTAssertTrue(dom.contains("Planted"), "the entry is there: \(dom.prefix(400))")
        XCTAssertFalse(dom.contains("class=\"pwned"), dom)
        XCTAssertTrue(dom.contains("<title>Diary</title>"), dom)
        XCTAssertEqual(dom.components(separatedBy: "<img ").count, 2, "the photo alone is an image")
        XCTAssertTrue(dom.contains("alt=\"photo-1.jpeg\" src=\"data:image/jpeg;base64,/9j/"), dom)
    }
}
