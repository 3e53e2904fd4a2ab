import Foundation
import RxInspect

extension ExportedTestFile {
    /// Writes the file into `directory` under its `name` (replacing one of
    /// that name) and returns its URL.
    public func write(into directory: URL) throws -> URL {
        let url = directory.appendingPathComponent(name)
        try contents.write(to: url, atomically: true, encoding: .utf8)
        return url
    }
}
