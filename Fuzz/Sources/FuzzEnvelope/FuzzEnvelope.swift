import DiaryFuzzing

/// libFuzzer's entry point: one input to `FuzzEntryPoints.envelope`. No top-level code.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    FuzzEntryPoints.envelope(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
