import Foundation
import RxSwift

extension GiphyAPI {
    /// The GIF at `url` as the cell shows it: the download's progress, then the frames as terminal
    /// images with their delays. The decoding runs where the download delivers, off the main thread,
    /// which is why it is here, nonisolated, and not in the (main actor) cell.
    func downloadFrames(url: URL) -> Observable<GifCell.GifLoadedFrames> {
        downloadGif(url: url)
            .map { load -> GifCell.GifLoadedFrames in
                switch load {
                case .progress(let fraction): return .progress(Float(fraction))
                case .decoding: return .decoding
                case .gif(let image): return .frames(GifCell.frames(of: image), loopCount: image.loopCount)
                }
            }
    }
}
