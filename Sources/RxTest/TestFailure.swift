import Testing
import XCTest

/// Reports a test failure to whichever framework runs the current test: Swift Testing when a test of
/// its is running, XCTest otherwise.
enum TestFailure {
    struct Location {
        let file: StaticString
        let fileID: String
        let line: UInt
        let column: UInt

        init(file: StaticString, fileID: String, line: UInt, column: UInt) {
            self.file = file
            self.fileID = fileID
            self.line = line
            self.column = column
            self.swiftTesting = nil
        }

        init(_ sourceLocation: SourceLocation) {
            self.file = #filePath
            self.fileID = sourceLocation.fileID
            self.line = UInt(sourceLocation.line)
            self.column = UInt(sourceLocation.column)
            self.swiftTesting = sourceLocation
        }

        /// The caller's location when it came from Swift Testing's `#_sourceLocation`.
        private let swiftTesting: SourceLocation?

        var sourceLocation: SourceLocation {
            if let swiftTesting { return swiftTesting }
            return SourceLocation(fileID: fileID, filePath: "\(file)", line: Int(line), column: Int(column))
        }
    }

    static func report(_ message: String, at location: Location) {
        if Test.current != nil {
            Issue.record(Comment(rawValue: message), sourceLocation: location.sourceLocation)
        } else {
            XCTFail(message, file: location.file, line: location.line)
        }
    }
}
