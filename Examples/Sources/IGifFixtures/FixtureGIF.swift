import FixtureHTTP
import Foundation

/// The small animated GIFs the fixture server serves, made by ``encodeGIF(width:height:colors:frames:loopCount:)``
/// from a GIF's id alone, so the same id always gets the same bytes.
///
/// Each is a ball bouncing over a gradient in the id's own colours. The frames use what a real GIF
/// uses, so the app's decoder is exercised by every fixture: a full first frame, then each ball as a
/// small transparent sub-rectangle disposed of by "restore to previous"; odd ids are interlaced and
/// draw their ball with a local colour table. One in three has a loop count of 2 (three plays in all);
/// the others loop for ever.
enum FixtureGIF {
    static let width = 64
    static let height = 40
    static let frameCount = 8
    static let ballRadius = 6

    static func bytes(id: String) -> [UInt8] {
        let seed = UInt64(bitPattern: Int64(stableHash(id)))
        let hue = Double(seed % 360)
        let odd = seed & 1 == 1
        // 16 shades of the background gradient, then the ball's colour, then a transparent slot.
        var colors: [(UInt8, UInt8, UInt8)] = (0..<16).map { shade in
            rgb(hue: hue, saturation: 0.65, value: 0.35 + 0.04 * Double(shade))
        }
        let ball = rgb(hue: (hue + 180).truncatingRemainder(dividingBy: 360), saturation: 0.8, value: 1)
        colors.append(ball)
        colors.append((0, 0, 0))
        let ballIndex: UInt8 = 16
        let clear: UInt8 = 17

        let background = (0..<width * height).map { pixel in
            UInt8(min(15, (pixel % width + pixel / width) * 16 / (width + height)))
        }
        var frames = [GIFEncoderFrame(width: width, height: height, indices: background, delayCentiseconds: 8)]
        let side = ballRadius * 2 + 1
        let delay = 6 + Int((seed >> 8) % 5)
        for step in 0..<frameCount {
            // Across and back once per loop, along a bounce.
            let phase = Double(step) / Double(frameCount)
            let x = Int(Double(width - side) * (phase < 0.5 ? phase * 2 : 2 - phase * 2))
            let y = Int(Double(height - side) * (1 - abs(sin(phase * 2 * .pi))))
            var sprite: [UInt8] = []
            for row in 0..<side {
                for column in 0..<side {
                    let dx = column - ballRadius
                    let dy = row - ballRadius
                    sprite.append(
                        dx * dx + dy * dy <= ballRadius * ballRadius ? (odd ? 1 : ballIndex) : (odd ? 0 : clear))
                }
            }
            frames.append(
                GIFEncoderFrame(
                    x: x, y: y, width: side, height: side, indices: sprite, delayCentiseconds: delay, disposal: 3,
                    transparentIndex: odd ? 0 : clear, localColors: odd ? [(0, 0, 0), ball] : nil, interlaced: odd))
        }
        // Most loop for ever; one in three plays three times and stops, so loop counts are seen.
        return encodeGIF(
            width: width, height: height, colors: colors, frames: frames, loopCount: seed % 3 == 0 ? 2 : 0)
    }

    private static func rgb(hue: Double, saturation: Double, value: Double) -> (UInt8, UInt8, UInt8) {
        let chroma = value * saturation
        let sector = hue / 60
        let x = chroma * (1 - abs(sector.truncatingRemainder(dividingBy: 2) - 1))
        let (r, g, b): (Double, Double, Double)
        switch Int(sector) {
        case 0: (r, g, b) = (chroma, x, 0)
        case 1: (r, g, b) = (x, chroma, 0)
        case 2: (r, g, b) = (0, chroma, x)
        case 3: (r, g, b) = (0, x, chroma)
        case 4: (r, g, b) = (x, 0, chroma)
        default: (r, g, b) = (chroma, 0, x)
        }
        let m = value - chroma
        return (UInt8((r + m) * 255), UInt8((g + m) * 255), UInt8((b + m) * 255))
    }
}
