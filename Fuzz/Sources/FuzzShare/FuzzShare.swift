import DiaryFuzzing

/// libFuzzer's entry point: one input to `FuzzEntryPoints.share`. No top-level code.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    FuzzEntryPoints.share(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
