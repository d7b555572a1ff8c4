import DiaryFuzzing

/// libFuzzer's entry point: one input to `MarkdownFuzzEntryPoints.html`. No top-level code.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    MarkdownFuzzEntryPoints.html(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
