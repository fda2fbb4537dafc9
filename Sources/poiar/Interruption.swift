import Dispatch
import Foundation
import POIARCore

/// Ctrl-C (SIGINT), SIGTERM and SIGHUP: the temporaries of the outputs being written are
/// removed before the process ends as the signal would have ended it (exit status 128 + N to
/// the shell). Handled on a dispatch queue, not in the signal handler, so the clean-up may list
/// folders and take locks; SIGKILL cannot be caught, and the next run removes what it leaves
/// (`AtomicFile.removeStaleTemporaries`).
enum Interruption {
    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []

    static func install() {
        for sig in [SIGINT, SIGTERM, SIGHUP] {
            // A signal the parent ignores (nohup, a background job) stays ignored.
            let previous = signal(sig, SIG_IGN)
            if previous.map({ unsafeBitCast($0, to: Int.self) }) == unsafeBitCast(SIG_IGN, to: Int.self) { continue }
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler {
                AtomicFile.removeOwnTemporaries()
                // Ended by the signal itself (its default action, on this thread, where it is
                // not blocked), so the parent sees what ended it; 128 + N should that return.
                signal(sig, SIG_DFL)
                var set = sigset_t()
                sigemptyset(&set)
                sigaddset(&set, sig)
                pthread_sigmask(SIG_UNBLOCK, &set, nil)
                raise(sig)
                _exit(128 + sig)
            }
            source.resume()
            sources.append(source)
        }
    }
}
