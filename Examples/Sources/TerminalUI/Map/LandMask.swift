import Foundation

/// Which parts of the world are land, on a regular latitude/longitude grid: what ``MapView`` draws.
///
/// ``world`` is NOAA's GLOBE land/sea mask at 1/12° (2160 × 4320 cells), generated once by
/// `Examples/Tools/make-landmask.py` into `GENERATED-LandMaskData.swift`; see that tool for the source and the
/// encoding. The grid is decoded on first use into one bit per cell (about 1.1 MB).
public struct LandMask: Sendable {
    /// Cells across, from 180° W eastwards.
    public let columns: Int
    /// Cells down, from 90° N southwards.
    public let rows: Int
    private let wordsPerRow: Int
    private let bits: [UInt64]

    /// The world, decoded once on first use (a global's lazy, thread-safe initialisation).
    public static let world: LandMask = {
        guard let data = Data(base64Encoded: worldBase64, options: .ignoreUnknownCharacters),
            let mask = LandMask(encoded: [UInt8](data))
        else {
            preconditionFailure("GENERATED-LandMaskData.swift does not decode: run Examples/Tools/make-landmask.py")
        }
        return mask
    }()

    /// Decodes the tool's encoding: `"LMK1"`, then LEB128 integers — columns, rows, then each row's
    /// run lengths alternating sea and land, starting with sea. `nil` if the bytes are not that (a
    /// row whose runs do not add up to the width, trailing or missing bytes).
    public init?(encoded bytes: [UInt8]) {
        guard bytes.count > 4, bytes[0..<4].elementsEqual("LMK1".utf8) else { return nil }
        var index = 4
        func next() -> Int? {
            var value = 0
            var shift = 0
            while index < bytes.count, shift < 63 {
                let byte = bytes[index]
                index += 1
                value |= Int(byte & 0x7F) << shift
                if byte & 0x80 == 0 { return value }
                shift += 7
            }
            return nil
        }
        guard let columns = next(), let rows = next(), columns > 0, rows > 0 else { return nil }
        let wordsPerRow = (columns + 63) / 64
        var bits = [UInt64](repeating: 0, count: wordsPerRow * rows)
        for row in 0..<rows {
            var column = 0
            var isLand = false
            while column < columns {
                guard let run = next(), run <= columns - column else { return nil }
                if isLand {
                    for land in column..<(column + run) {
                        bits[row * wordsPerRow + land / 64] |= 1 << UInt64(land % 64)
                    }
                }
                column += run
                isLand.toggle()
            }
        }
        guard index == bytes.count else { return nil }
        self.columns = columns
        self.rows = rows
        self.wordsPerRow = wordsPerRow
        self.bits = bits
    }

    /// Whether the cell containing the coordinate is land. Longitudes wrap around the world;
    /// latitudes beyond the poles are taken as the pole's row.
    public func isLand(latitude: LocationDegrees, longitude: LocationDegrees) -> Bool {
        guard latitude.isFinite, longitude.isFinite else { return false }
        let row = min(rows - 1, max(0, Int(((90 - latitude) / 180 * Double(rows)).rounded(.down))))
        let east = (longitude + 180).truncatingRemainder(dividingBy: 360)
        let column = min(columns - 1, Int(((east < 0 ? east + 360 : east) / 360 * Double(columns)).rounded(.down)))
        return bits[row * wordsPerRow + column / 64] & (1 << UInt64(column % 64)) != 0
    }

    /// Whether `coordinate` is on land.
    public func isLand(_ coordinate: LocationCoordinate2D) -> Bool {
        isLand(latitude: coordinate.latitude, longitude: coordinate.longitude)
    }
}
