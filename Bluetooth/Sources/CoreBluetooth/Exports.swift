// On Apple's platforms `import CoreBluetooth` brings Foundation with it, and code written for
// RxBluetoothKit names `Data`, `UUID` and `NSNumber` with no other import; so does this module.
@_exported import Foundation
