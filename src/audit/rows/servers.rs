//! A server the report says runs now at a local port ("Der Server läuft jetzt im
//! Hintergrund auf http://127.0.0.1:18744", "the dev server is listening on port 5173"):
//! [`Kind::Listening`], which the evidence checks by connecting to the port when the turn
//! ends.

use super::*;

/// Words that say a server runs or listens now, in the tables' languages.
const RUNNING: &[&str] = &[
    "running",
    "listening",
    "is up",
    "serving",
    "läuft",
    "lauscht",
    "draait",
    "luistert",
    "tourne",
    "écoute",
    "en écoute",
    "est lancé",
    "corriendo",
    "escuchando",
    "ejecutándose",
    "en ejecución",
    "rodando",
    "em execução",
    "escutando",
    "in esecuzione",
    "in ascolto",
    "è attivo",
    "работает",
    "запущен",
    "слушает",
    "працює",
    "запущено",
    "слухає",
    "działa",
    "nasłuchuje",
    "běží",
    "beží",
    "fut ",
    "kuuntelee",
    "käynnissä",
    "kører",
    "lytter",
    "kjører",
    "körs",
    "lyssnar",
    "çalışıyor",
    "dinliyor",
    "đang chạy",
    "berjalan",
    "mendengarkan",
    "运行",
    "監聽",
    "监听",
    "起動中",
    "動いて",
    "待ち受け",
    "실행 중",
    "동작 중",
    "רץ",
    "פועל",
    "يعمل",
    "قيد التشغيل",
    "در حال اجرا",
    "चल रहा",
    "inaendesha",
    "tumatakbo",
    "τρέχει",
    "работи",
    "radi",
    "rulează",
    "ascultă",
];

/// Words that say it was stopped or ran only for a while: the sentence tells its past.
const STOPPED: &[&str] = &[
    "stopped",
    "killed",
    "shut down",
    "gestoppt",
    "beendet",
    "gestopt",
    "arrêté",
    "detenido",
    "detuve",
    "parado",
    "parei",
    "fermato",
    "остановил",
    "остановлен",
    "зупинив",
    "zatrzyma",
    "zastaven",
    "pysäyt",
    "stoppet",
    "stoppade",
    "durdur",
    "dừng",
    "dihentikan",
    "menghentikan",
    "停止",
    "停掉",
    "止め",
    "중지",
    "עצר",
    "أوقف",
    "متوقف",
    "روکش",
    "बंद",
    "σταμάτησ",
    "спрях",
    "zaustavi",
    "oprit",
];

/// Hosts that name this machine in a URL.
const LOCAL_HOSTS: &[&str] = &["127.0.0.1:", "localhost:", "0.0.0.0:", "[::1]:"];

/// Marks the port a sentence says a server runs on now: a local URL with a port
/// (`http://127.0.0.1:8000`, `localhost:5173`) and a word for running or listening; nothing where the sentence says it was stopped, denies,
/// plans or asks.
pub fn mark_listening_servers(readings: &mut [Reading]) {
    static RUN: OnceLock<forms::Phrases> = OnceLock::new();
    static STOP: OnceLock<forms::Phrases> = OnceLock::new();
    let run = RUN.get_or_init(|| forms::Phrases::new(RUNNING));
    let stop = STOP.get_or_init(|| forms::Phrases::new(STOPPED));
    for r in readings.iter_mut().filter(|r| !r.skipped) {
        let lower = fold(&r.sentence.to_lowercase());
        if r.sentence.trim_end().ends_with(['?', '？']) || run.find_in(&lower).is_none() {
            continue;
        }
        let Some(port) = local_port(&lower) else {
            continue;
        };
        if stop.find_in(&lower).is_some() || refs::negates(&lower) || refs::plans_or_doubts(r) {
            continue;
        }
        add_new(r, Kind::Listening { port });
    }
}

/// The port of the first local URL in `text` (`127.0.0.1:8000`, `localhost:5173/`).
fn local_port(text: &str) -> Option<u16> {
    LOCAL_HOSTS.iter().find_map(|host| {
        let at = text.find(host)? + host.len();
        let digits: String = text[at..]
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        digits.parse::<u16>().ok().filter(|p| *p > 0)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_local_url_gives_the_port() {
        assert_eq!(local_port("auf http://127.0.0.1:18744 (log)"), Some(18744));
        assert_eq!(local_port("open localhost:5173/ now"), Some(5173));
        assert_eq!(local_port("https://example.com:8443"), None);
        assert_eq!(local_port("127.0.0.1:x"), None);
    }
}
