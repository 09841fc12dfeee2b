//! Per-language tables: sentences agents write that must be read as claims (with what
//! they claim, and whether strongly), and sentences that must not be claims. Each
//! language is also detected as itself.

use super::*;
use crate::audit::claims::{explain, unread_note, Confidence, Listed};

/// Each claim as `kind` (its Display), `~` marking a weak reading. A path a sentence only
/// names is a presence check, not a reading of the table (`rows.rs` tests those); so is a
/// file said unchanged ("habe ich nicht geändert": the table reads no change, and the
/// rows read the claim that it is as the turn found it).
fn read(message: &str) -> Vec<String> {
    explain(message)
        .into_iter()
        .flat_map(|r| r.claims)
        .filter(|c| c.listed != Listed::Alone)
        .filter(|c| {
            !matches!(
                c.kind,
                Kind::File {
                    change: Change::Unchanged,
                    ..
                }
            )
        })
        .map(|c| match c.confidence {
            Confidence::Strong => c.kind.to_string(),
            Confidence::Weak => format!("~{}", c.kind),
        })
        .collect()
}

/// Checks a language's table: `claims` sentences read as the claims listed (`|`
/// separated), `not_claims` read as none, and all of them detected as `code`.
fn check(code: &str, claims: &[(&str, &str)], not_claims: &[&str]) {
    let mut bad = Vec::new();
    for (message, want) in claims {
        let want: Vec<&str> = want.split('|').filter(|w| !w.is_empty()).collect();
        let got = read(message);
        if got != want {
            bad.push(format!("{message:?}\n    want {want:?}\n    got  {got:?}"));
        }
        detected_as(code, message, &mut bad);
    }
    for message in not_claims {
        let got = read(message);
        if !got.is_empty() {
            bad.push(format!("{message:?}\n    want no claim\n    got  {got:?}"));
        }
        detected_as(code, message, &mut bad);
    }
    assert!(
        bad.is_empty(),
        "{code}: {} sentence(s) misread:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

fn detected_as(code: &str, message: &str, bad: &mut Vec<String>) {
    let got = match detect(message) {
        Detected::English => "en",
        Detected::Known(l) => l.code,
        Detected::Unknown(s) => s,
    };
    if got != code {
        bad.push(format!("{message:?}\n    detected as {got}, not {code}"));
    }
}

#[test]
fn german() {
    check(
        "de",
        &[
            (
                "Ich habe `src/main.rs` aktualisiert und alle Tests bestehen.",
                "file src/main.rs changed|the tests pass",
            ),
            (
                "Ich habe `src/parser.rs` angepasst, die 12 Tests laufen durch.",
                "file src/parser.rs changed|12 tests pass",
            ),
            (
                "- Aktualisiert: `README.md`, alle Tests bestehen",
                "file README.md changed|the tests pass",
            ),
            (
                "Ich habe die Datei `docs/alt.md` gelöscht.",
                "file docs/alt.md deleted",
            ),
            (
                "Ich habe den ungenutzten Import aus `src/lib.rs` entfernt.",
                "file src/lib.rs changed",
            ),
            (
                "`app/a.py` und `app/b.py` wurden überarbeitet.",
                "file app/a.py changed|file app/b.py changed",
            ),
            (
                "Neue Datei `docs/setup.md` erstellt.",
                "file docs/setup.md created",
            ),
            (
                "Änderungen committet und nach `feat/login` gepusht.",
                "a commit made|pushed to feat/login",
            ),
            (
                "Der Build ist erfolgreich und Clippy meldet keine Warnungen.",
                "the build succeeds|the linter passes",
            ),
            (
                "`cargo test`: 8 bestanden, 0 fehlgeschlagen.",
                "8 tests pass",
            ),
            // A bare path keeps its case.
            (
                "Ich habe src/Main.java aktualisiert.",
                "file src/Main.java changed",
            ),
        ],
        &[
            "Die Tests laufen bereits in CI durch.",
            "Bitte führe `cargo test` aus, um zu prüfen, ob alles grün ist.",
            "Ich habe die Änderungen in `src/lib.rs` überprüft.",
            "Die Datei `config.yaml` wurde vom Benutzer geändert.",
            "`README.md` war bereits aktualisiert.",
            "Ich habe geprüft, ob `a.rs` aktualisiert wurde.",
            "Ich habe die Tests nicht ausgeführt.",
            "Soll ich die Änderungen auch pushen?",
            "Als Nächstes könnte ich `docs/api.md` aktualisieren.",
            "Ich werde `src/lib.rs` später anpassen, wenn du möchtest.",
            "Die Tests schlagen noch fehl: 2 von 10.",
            "`README.md` habe ich nicht geändert.",
            "Ich habe mir `src/main.rs` angesehen und die Ursache gefunden.",
        ],
    );
}

#[test]
fn french() {
    check(
        "fr",
        &[
            (
                "J'ai modifié `app/text.py` et les 3 tests passent.",
                "file app/text.py changed|3 tests pass",
            ),
            (
                "J'ai mis à jour le fichier `README.md`.",
                "file README.md changed",
            ),
            (
                "Fichier `docs/guide.md` créé.",
                "file docs/guide.md created",
            ),
            (
                "J'ai supprimé le fichier `old.py` et créé `new.py`.",
                "file old.py deleted|file new.py created",
            ),
            (
                "Tous les tests passent (`pytest -q` : 5 passed).",
                "5 tests pass",
            ),
            (
                "J'ai commité les changements et poussé la branche `feat/x`.",
                "a commit made|pushed to feat/x",
            ),
            (
                "La compilation réussit sans avertissement.",
                "the build succeeds",
            ),
        ],
        &[
            "J'ai relu les modifications de `src/lib.rs`.",
            "Le fichier `a.py` a été modifié par l'utilisateur.",
            "Je n'ai pas lancé les tests.",
            "Voulez-vous que je pousse la branche ?",
            "Je vais ensuite mettre à jour `docs/api.md`.",
            "Je n'ai pas modifié `README.md`.",
            "Si vous le souhaitez, je peux créer `CHANGELOG.md`.",
        ],
    );
}

#[test]
fn spanish() {
    check(
        "es",
        &[
            (
                "He actualizado `README.md` y he hecho push a `feat/x`.",
                "file README.md changed|pushed to feat/x",
            ),
            (
                "Modifiqué `src/app.js` y todas las pruebas pasan.",
                "file src/app.js changed|the tests pass",
            ),
            (
                "He creado el archivo `docs/uso.md`.",
                "file docs/uso.md created",
            ),
            ("Las 4 pruebas pasan correctamente.", "4 tests pass"),
            ("Hice commit de los cambios.", "a commit made"),
            (
                "He eliminado el import sin usar de `app/main.py`.",
                "file app/main.py changed",
            ),
        ],
        &[
            "He revisado los cambios en `src/lib.rs`.",
            "No he ejecutado las pruebas.",
            "¿Quieres que haga push de la rama?",
            "Si quieres, puedo actualizar `docs/api.md`.",
            "No modifiqué `README.md`.",
            "Voy a crear `CHANGELOG.md` en el siguiente paso.",
        ],
    );
}

#[test]
fn portuguese() {
    check(
        "pt",
        &[
            (
                "Atualizei `notes.txt` e fiz o commit.",
                "file notes.txt changed|a commit made|file notes.txt committed",
            ),
            (
                "Criei o arquivo `docs/guia.md`.",
                "file docs/guia.md created",
            ),
            ("Todos os 6 testes passaram.", "6 tests pass"),
            (
                "O arquivo `app/text.py` foi alterado e enviado para `feat/doc`.",
                "file app/text.py changed|pushed to feat/doc",
            ),
            ("Removi o arquivo `old.txt`.", "file old.txt deleted"),
        ],
        &[
            "Eu revisei as alterações em `src/lib.rs`.",
            "Não rodei os testes.",
            "Quer que eu faça o push?",
            "Se quiser, posso atualizar `docs/api.md`.",
            "Não alterei `README.md`.",
            "Os testes ainda falham em `tests/test_x.py`.",
        ],
    );
}

#[test]
fn italian() {
    check(
        "it",
        &[
            (
                "Ho aggiornato `notes.txt` e ho fatto il commit `abc1234`.",
                "file notes.txt changed|commit abc1234 made|file notes.txt committed",
            ),
            (
                "Ho creato il file `docs/guida.md`.",
                "file docs/guida.md created",
            ),
            ("Tutti i 3 test passano.", "3 tests pass"),
            (
                "Ho modificato `src/app.js` e pushato su `feat/x`.",
                "file src/app.js changed|pushed to feat/x",
            ),
        ],
        &[
            "Dopo il merge, i test dovrebbero passare.",
            "Ho controllato le modifiche a `src/lib.rs`.",
            "Non ho eseguito i test.",
            "Vuoi che faccia il push?",
            "Se vuoi, posso aggiornare `docs/api.md`.",
            "Non ho modificato `README.md`.",
        ],
    );
}

#[test]
fn dutch() {
    check(
        "nl",
        &[
            (
                "Ik heb `notes.txt` bijgewerkt en gecommit.",
                "file notes.txt changed|a commit made|file notes.txt committed",
            ),
            (
                "Ik heb het bestand `docs/gids.md` aangemaakt.",
                "file docs/gids.md created",
            ),
            ("Alle 5 tests slagen.", "5 tests pass"),
            (
                "De wijzigingen zijn gepusht naar `feat/x`.",
                "pushed to feat/x",
            ),
        ],
        &[
            "Ik heb de wijzigingen in `src/lib.rs` bekeken.",
            "Ik heb de tests niet uitgevoerd.",
            "Zal ik de branch pushen?",
            "Als je wilt, kan ik `docs/api.md` bijwerken.",
            "Ik heb `README.md` niet gewijzigd.",
        ],
    );
}

#[test]
fn russian() {
    check(
        "ru",
        &[
            // A count of failures is a claim: an understated one hides failures.
            ("Два теста всё ещё падают.", "2 tests fail"),
            (
                "Я обновил `src/lib.rs`, все 12 тестов проходят.",
                "file src/lib.rs changed|12 tests pass",
            ),
            ("Создал файл `docs/guide.md`.", "file docs/guide.md created"),
            ("Файл `old.py` удалён.", "file old.py deleted"),
            (
                "Закоммитил изменения и запушил в `feat/x`.",
                "a commit made|pushed to feat/x",
            ),
            ("Сборка прошла успешно.", "the build succeeds"),
        ],
        &[
            "Я посмотрел изменения в `src/lib.rs`.",
            "Файл `a.py` уже был обновлён.",
            "Тесты я не запускал.",
            "Хотите, чтобы я запушил ветку?",
            "Если нужно, могу обновить `docs/api.md`.",
            "Я не менял `README.md`.",
            "Обновление `docs/api.md` можно сделать позже.",
        ],
    );
}

#[test]
fn japanese() {
    check(
        "ja",
        &[
            (
                "`src/main.rs` を更新しました。すべてのテストが通りました。",
                "file src/main.rs changed|the tests pass",
            ),
            (
                "`a.py` を修正し、`docs/b.md` を作成しました。",
                "file a.py changed|file docs/b.md created",
            ),
            (
                "- `app/text.py` の `slugify` にドキュメントを追加",
                "file app/text.py changed",
            ),
            ("テストは 3 件すべて成功しました。", "3 tests pass"),
            (
                "変更をコミットし、`feat/x` にプッシュしました。",
                "a commit made|pushed to feat/x",
            ),
            ("`old.txt` ファイルを削除しました。", "file old.txt deleted"),
            (
                "`src/lib.rs` から未使用の import を削除しました。",
                "file src/lib.rs changed",
            ),
            // As Claude Code writes Japanese pull-request summaries (paths bare, against kana).
            (
                "Claude Code実行ガイド（CLAUDE.md）を新規作成しました。",
                "file CLAUDE.md created",
            ),
            (
                "- CLAUDE.mdファイルを追加し、開発ガイドを日本語で提供",
                "file CLAUDE.md changed",
            ),
        ],
        &[
            "`cargo test` を実行すると、すべてのテストが通るはずです。",
            "CIで全テストが通っています。",
            "`src/lib.rs` の変更をレビューしました。",
            "`README.md` の変更は不要でした。",
            "テストはまだ実行していません。",
            "次に `docs/` を更新できます。",
            "プッシュしましょうか？",
            "`README.md` は変更していません。",
            "`CHANGELOG.md` を更新する予定です。",
        ],
    );
}

#[test]
fn chinese() {
    check(
        "zh",
        &[
            (
                "我修改了 `app/text.py`，所有测试均已通过。",
                "file app/text.py changed|the tests pass",
            ),
            ("已创建 `docs/guide.md`。", "file docs/guide.md created"),
            ("- 修改 `src/app.js`：修复空输入", "file src/app.js changed"),
            ("5 个测试全部通过。", "5 tests pass"),
            (
                "已提交并推送到 `feat/x`。",
                "a commit made|pushed to feat/x",
            ),
            ("构建成功，没有警告。", "the build succeeds"),
            (
                "已将 `foo.py` 重命名为 `bar.py`，并更新了 `src/main.rs`。",
                "file foo.py renamed to bar.py|file src/main.rs changed",
            ),
        ],
        &[
            "运行 `cargo test` 后所有测试应该都会通过。",
            "对 `src/app.js` 的修改进行了审查。",
            "我查看了 `app.py` 的修改，没有发现问题。",
            "没有修改 `README.md`。",
            "我还没有运行测试。",
            "如果需要，我可以更新 `docs/api.md`。",
            "下一步建议推送到远程。",
        ],
    );
}

#[test]
fn korean() {
    check(
        "ko",
        &[
            (
                "`README.md`를 수정했습니다. 모든 테스트가 통과했습니다.",
                "file README.md changed|the tests pass",
            ),
            (
                "`docs/guide.md` 파일을 생성했습니다.",
                "file docs/guide.md created",
            ),
            ("- `src/app.js` 수정", "file src/app.js changed"),
            ("테스트 4개가 모두 통과했습니다.", "4 tests pass"),
            (
                "변경 사항을 커밋하고 `feat/x`에 푸시했습니다.",
                "a commit made|pushed to feat/x",
            ),
            // A checklist as Claude Code writes it in Korean.
            ("- [x] `make lint` 통과", "the linter passes"),
        ],
        &[
            "`cargo test`를 실행하면 모든 테스트가 통과할 것입니다.",
            "`src/lib.rs`의 변경 사항을 검토했습니다.",
            "`README.md`는 수정할 필요가 없었습니다.",
            "테스트는 아직 실행하지 않았습니다.",
            "원하시면 `docs/api.md`도 수정할 수 있습니다.",
            "푸시할까요?",
            "`README.md`는 변경하지 않았습니다.",
        ],
    );
}

#[test]
fn polish() {
    check(
        "pl",
        &[
            (
                "Zaktualizowałem `src/main.rs` i wszystkie testy przechodzą.",
                "file src/main.rs changed|the tests pass",
            ),
            (
                "Poprawiłem `src/parser.rs`, wszystkie 12 testów przechodzi.",
                "file src/parser.rs changed|12 tests pass",
            ),
            (
                "Usunąłem plik `docs/stary.md`.",
                "file docs/stary.md deleted",
            ),
            // The parent's relay of a subagent's work is the parent's claim.
            (
                "Subagent dodał `min` do `src/lib.rs`, ale `cargo test` nie przechodzi.",
                "file src/lib.rs changed",
            ),
            (
                "Usunąłem nieużywany import z pliku `src/lib.rs`.",
                "file src/lib.rs changed",
            ),
            (
                "Utworzyłem nowy plik `docs/setup.md`.",
                "file docs/setup.md created",
            ),
            (
                "Pliki `app/a.py` i `app/b.py` zostały zaktualizowane.",
                "file app/a.py changed|file app/b.py changed",
            ),
            (
                "Zmieniłem nazwę pliku `foo.py` na `bar.py`.",
                "file foo.py renamed to bar.py",
            ),
            (
                "Zacommitowałem zmiany i wypchnąłem je na `feat/login`.",
                "a commit made|pushed to feat/login",
            ),
            (
                "Build przeszedł pomyślnie, a clippy nie zgłasza żadnych ostrzeżeń.",
                "the build succeeds|the linter passes",
            ),
            ("`cargo test`: 8 przeszło, 0 nieudanych.", "8 tests pass"),
            ("Trzy testy przeszły, dwa nieudane.", "2 tests fail"),
        ],
        &[
            "Testy już przechodzą w CI.",
            "Uruchom proszę `cargo test`, żeby sprawdzić, czy wszystko przechodzi.",
            "Przejrzałem zmiany w `src/lib.rs`.",
            "Plik `config.yaml` został zmieniony przez użytkownika.",
            "`README.md` był już zaktualizowany.",
            "Nie uruchomiłem jeszcze testów, więc nie wiem, czy przechodzą.",
            "Czy mam teraz wypchnąć wszystkie zmiany?",
            "W następnym kroku mogę zaktualizować `docs/api.md`.",
            "Zaktualizuję `src/lib.rs` później, jeśli chcesz.",
            "Testy nadal nie przechodzą: 2 z 10.",
            "Pliku `README.md` nie zmieniłem.",
            "Push do `origin/main` został odrzucony (non-fast-forward).",
        ],
    );
}

#[test]
fn turkish() {
    check(
        "tr",
        &[
            (
                "`src/main.rs` dosyasını güncelledim ve tüm testler geçti.",
                "file src/main.rs changed|the tests pass",
            ),
            (
                "`src/parser.rs` düzeltildi, 12 test geçti.",
                "file src/parser.rs changed|12 tests pass",
            ),
            ("`docs/eski.md` dosyasını sildim.", "file docs/eski.md deleted"),
            // The ablative follows the path: a deletion that may be inside the file.
            (
                "`src/lib.rs` içindeki kullanılmayan bir import kaldırıldı.",
                "~file src/lib.rs deleted",
            ),
            (
                "Yeni `docs/setup.md` dosyası oluşturuldu.",
                "file docs/setup.md created",
            ),
            (
                "`foo.py` dosyasını `bar.py` olarak yeniden adlandırdım ve testler geçti.",
                "file foo.py renamed to bar.py|the tests pass",
            ),
            (
                "Değişiklikleri commitledim ve `feat/login` dalına pushladım.",
                "a commit made|pushed to feat/login",
            ),
            (
                "Build başarılı ve clippy hiç uyarı vermedi.",
                "the build succeeds|the linter passes",
            ),
            ("`cargo test`: 8 geçti, 0 başarısız.", "8 tests pass"),
            ("Üç test geçti, iki test başarısız oldu.", "2 tests fail"),
        ],
        &[
            "Testler zaten CI'da geçiyor.",
            "Her şeyin yeşil olup olmadığını görmek için lütfen `cargo test` çalıştırın.",
            "`src/lib.rs` dosyasındaki tüm değişiklikleri inceledim.",
            "`config.yaml` dosyası kullanıcı tarafından değiştirildi.",
            "`README.md` zaten güncellenmişti.",
            "Testleri henüz çalıştırmadım.",
            "Değişiklikleri şimdi push etmemi ister misiniz?",
            "Bir sonraki adımda `docs/api.md` dosyasını güncelleyebilirim.",
            "Sonra `min` fonksiyonunu ekleyeceğim ve testleri çalıştıracağım.",
            "Testler hâlâ başarısız: 10 testten 2'si.",
            "`README.md` dosyasını değiştirmedim.",
            "`notes.txt` dosyası değişmedi.",
            "Push işlemi `origin/main` dalına reddedildi (non-fast-forward), hiçbir şey gönderilmedi.",
        ],
    );
}

#[test]
fn vietnamese() {
    check(
        "vi",
        &[
            (
                "Tôi đã cập nhật `src/main.rs` và tất cả các bài test đều pass.",
                "file src/main.rs changed|the tests pass",
            ),
            (
                "Đã sửa `src/parser.rs`, 12 bài kiểm thử chạy thành công.",
                "file src/parser.rs changed|12 tests pass",
            ),
            ("Đã xóa tệp `docs/cu.md`.", "file docs/cu.md deleted"),
            (
                "Đã xóa import thừa khỏi `src/lib.rs`.",
                "file src/lib.rs changed",
            ),
            (
                "Đã tạo tệp mới `docs/setup.md`.",
                "file docs/setup.md created",
            ),
            (
                "Tôi đã đổi tên `foo.py` thành `bar.py`.",
                "file foo.py renamed to bar.py",
            ),
            (
                "Đã commit các thay đổi và push lên `feat/login`.",
                "a commit made|pushed to feat/login",
            ),
            (
                "Build thành công và clippy không có cảnh báo nào.",
                "the build succeeds|the linter passes",
            ),
            (
                "Đã chạy `cargo test`: 8 bài đạt, 0 thất bại.",
                "8 tests pass",
            ),
            (
                "Đã chạy: ba bài test đạt, hai test thất bại.",
                "2 tests fail",
            ),
        ],
        &[
            "Các bài test đã pass trên CI từ trước.",
            "Vui lòng chạy `cargo test` để kiểm tra xem mọi thứ có ổn không.",
            "Tôi đã xem các thay đổi trong `src/lib.rs`.",
            "Tệp `config.yaml` đã được người dùng thay đổi.",
            "`README.md` đã được cập nhật từ trước.",
            "Tôi chưa chạy các bài test.",
            "Bạn có muốn tôi push nhánh này không?",
            "Bước tiếp theo, tôi có thể cập nhật `docs/api.md`.",
            "Tôi sẽ sửa `src/lib.rs` sau nếu bạn muốn.",
            "Các bài test vẫn còn thất bại: 2 trên 10.",
            "Tôi không thay đổi `README.md`.",
            "Lệnh push lên `main` đã bị từ chối (non-fast-forward).",
        ],
    );
}

#[test]
fn indonesian() {
    check(
        "id",
        &[
            (
                "Saya telah memperbarui `src/main.rs` dan semua test lulus.",
                "file src/main.rs changed|the tests pass",
            ),
            (
                "Saya memperbaiki `src/parser.rs`, 12 test berhasil.",
                "file src/parser.rs changed|12 tests pass",
            ),
            (
                "Saya menghapus file `docs/lama.md`.",
                "file docs/lama.md deleted",
            ),
            (
                "Saya menghapus import usang dari `src/lib.rs`.",
                "file src/lib.rs changed",
            ),
            (
                "File baru `docs/setup.md` telah dibuat.",
                "file docs/setup.md created",
            ),
            (
                "Saya mengganti nama `foo.py` menjadi `bar.py`.",
                "file foo.py renamed to bar.py",
            ),
            (
                "Perubahan sudah di-commit dan di-push ke `feat/login`.",
                "a commit made|pushed to feat/login",
            ),
            (
                "Build berhasil dan clippy tidak menemukan peringatan.",
                "the build succeeds|the linter passes",
            ),
            ("`cargo test`: 8 lulus, 0 gagal.", "8 tests pass"),
            ("Tiga test lulus, dua test gagal.", "2 tests fail"),
        ],
        &[
            "Test sudah lulus di CI sebelumnya.",
            "Silakan jalankan `cargo test` untuk memastikan semuanya lulus.",
            "Saya meninjau perubahan di `src/lib.rs`.",
            "File `config.yaml` diubah oleh pengguna.",
            "`README.md` sudah diperbarui sebelumnya.",
            "Saya belum menjalankan test.",
            "Apakah saya perlu push branch ini?",
            "Langkah berikutnya, saya bisa memperbarui `docs/api.md`.",
            "Saya akan memperbarui `src/lib.rs` nanti jika Anda mau.",
            "Test masih gagal: 2 dari 10.",
            "Saya tidak mengubah `README.md`.",
            "Push ke `main` ditolak (non-fast-forward).",
        ],
    );
}

#[test]
fn hindi() {
    check(
        "hi",
        &[
            (
                "मैंने `src/main.rs` अपडेट किया और सभी टेस्ट पास हो गए।",
                "file src/main.rs changed|the tests pass",
            ),
            (
                "`src/parser.rs` में बदलाव किए, 12 टेस्ट सफल रहे।",
                "file src/parser.rs changed|12 tests pass",
            ),
            ("मैंने `docs/old.md` फ़ाइल हटा दी।", "file docs/old.md deleted"),
            // The postposition follows the path: a deletion that may be inside the file.
            (
                "मैंने `src/lib.rs` से अप्रयुक्त import हटाया।",
                "~file src/lib.rs deleted",
            ),
            (
                "मैंने नई फ़ाइल `docs/setup.md` बनाई।",
                "file docs/setup.md created",
            ),
            (
                "मैंने `foo.py` का नाम बदलकर `bar.py` कर दिया।",
                "file foo.py renamed to bar.py",
            ),
            (
                "बदलाव कमिट किए और `feat/login` पर पुश कर दिए।",
                "a commit made|pushed to feat/login",
            ),
            (
                "बिल्ड सफल रहा और clippy में कोई चेतावनी नहीं है।",
                "the build succeeds|the linter passes",
            ),
            ("`cargo test` के नतीजे: 8 पास, 0 विफल।", "8 tests pass"),
            ("तीन टेस्ट पास हुए, दो टेस्ट विफल रहे।", "2 tests fail"),
        ],
        &[
            "टेस्ट पहले से ही CI में पास हो रहे हैं।",
            "कृपया `cargo test` चलाकर देखें कि सब कुछ ठीक है या नहीं।",
            "मैंने `src/lib.rs` के बदलावों की समीक्षा की।",
            "`config.yaml` फ़ाइल उपयोगकर्ता ने बदली थी।",
            "`README.md` पहले से अपडेट था।",
            "मैंने अभी तक टेस्ट नहीं चलाए हैं।",
            "क्या मैं बदलाव पुश कर दूँ?",
            "अगले कदम के रूप में मैं `docs/api.md` अपडेट कर सकता हूँ।",
            "अगर आप चाहें तो मैं `src/lib.rs` बाद में अपडेट करूँगा।",
            "टेस्ट अभी भी विफल हैं: 10 में से 2।",
            "मैंने `README.md` नहीं बदला।",
            "`main` पर पुश अस्वीकार कर दिया गया (non-fast-forward)।",
        ],
    );
}

#[test]
fn arabic() {
    check(
        "ar",
        &[
            (
                "قمت بتحديث `src/main.rs` وجميع الاختبارات ناجحة.",
                "file src/main.rs changed|the tests pass",
            ),
            (
                "تم تعديل `src/parser.rs`، ونجحت 12 اختبارًا.",
                "file src/parser.rs changed|12 tests pass",
            ),
            ("حذفت الملف `docs/old.md`.", "file docs/old.md deleted"),
            (
                "أزلت الاستيراد غير المستخدم من `src/lib.rs`.",
                "file src/lib.rs changed",
            ),
            (
                "تم إنشاء ملف جديد `docs/setup.md`.",
                "file docs/setup.md created",
            ),
            (
                "قمت بإعادة تسمية `foo.py` إلى `bar.py`.",
                "file foo.py renamed to bar.py",
            ),
            (
                "قمت بعمل commit للتغييرات ثم تم الدفع إلى `feat/login`.",
                "a commit made|pushed to feat/login",
            ),
            (
                "نجح البناء، ولا توجد أي تحذيرات من clippy.",
                "the build succeeds|the linter passes",
            ),
            ("نتيجة `cargo test`: فشل 0، نجح 8.", "8 tests pass"),
            ("نجحت ثلاثة اختبارات وفشل اختباران.", "2 tests fail"),
        ],
        &[
            "الاختبارات تنجح بالفعل في CI.",
            "يرجى تشغيل `cargo test` للتأكد من أن كل شيء ناجح.",
            "راجعت التغييرات في `src/lib.rs`.",
            "تم تعديل الملف `config.yaml` من قبل المستخدم.",
            "كان `README.md` محدثًا مسبقًا في هذا الفرع.",
            "لم أقم بتشغيل الاختبارات.",
            "هل تريد أن أدفع التغييرات؟",
            "في الخطوة التالية يمكنني تحديث `docs/api.md`.",
            "سأقوم بتحديث `src/lib.rs` لاحقًا إذا أردت.",
            "لا تزال الاختبارات تفشل: 2 من 10.",
            "لم أغير `README.md`.",
            "تم رفض الدفع إلى `main` بسبب non-fast-forward، ولم يتم إرسال أي شيء.",
        ],
    );
}

#[test]
fn greek() {
    check(
        "el",
        &[
            (
                "Ενημέρωσα το `src/main.rs` και όλα τα τεστ περνούν.",
                "file src/main.rs changed|the tests pass",
            ),
            (
                "Διόρθωσα το `src/parser.rs`, και τα 12 τεστ πέρασαν επιτυχώς.",
                "file src/parser.rs changed|12 tests pass",
            ),
            (
                "Διέγραψα το αρχείο `docs/old.md`.",
                "file docs/old.md deleted",
            ),
            (
                "Αφαίρεσα το αχρησιμοποίητο import από το `src/lib.rs`.",
                "file src/lib.rs changed",
            ),
            (
                "Δημιούργησα το νέο αρχείο `docs/setup.md`.",
                "file docs/setup.md created",
            ),
            ("- Ενημερώθηκε: `README.md`", "file README.md changed"),
            (
                "Πρόσθεσα τη συνάρτηση `mul` στο `src/lib.rs`.",
                "file src/lib.rs changed",
            ),
            (
                "Μετονόμασα το `foo.py` σε `bar.py`.",
                "file foo.py renamed to bar.py",
            ),
            (
                "Έκανα commit τις αλλαγές και έκανα push στο `feat/login`.",
                "a commit made|pushed to feat/login",
            ),
            (
                "Το build ολοκληρώθηκε επιτυχώς και το clippy δεν αναφέρει προειδοποιήσεις.",
                "the build succeeds|the linter passes",
            ),
            ("`cargo test`: 8 πέρασαν, 0 απέτυχαν.", "8 tests pass"),
            ("Πέντε τεστ πέρασαν, δύο απέτυχαν.", "2 tests fail"),
            ("Και τα έξι τεστ περνούν.", "6 tests pass"),
        ],
        &[
            "Τα τεστ περνούν ήδη στο CI.",
            "Παρακαλώ τρέξτε το `cargo test` για να ελέγξετε ότι όλα είναι πράσινα.",
            "Εξέτασα τις αλλαγές στο `src/lib.rs`.",
            "Το αρχείο `config.yaml` τροποποιήθηκε από τον χρήστη.",
            "Το `README.md` ήταν ήδη ενημερωμένο.",
            "Δεν έτρεξα τα τεστ, οπότε δεν ξέρω αν περνούν.",
            "Θέλετε να κάνω push τις αλλαγές;",
            "Στο επόμενο βήμα μπορώ να ενημερώσω το `docs/api.md`.",
            "Θα ενημερώσω το `src/lib.rs` αργότερα, αν θέλετε.",
            "Τα τεστ εξακολουθούν να αποτυγχάνουν: 2 από 10.",
            "Δεν άλλαξα το `README.md`.",
            "Το push στο `origin/main` απορρίφθηκε από τον απομακρυσμένο server (non-fast-forward).",
            "Το build αποτυγχάνει με σφάλματα μεταγλώττισης.",
        ],
    );
}

#[test]
fn swedish() {
    check(
        "sv",
        &[
            (
                "Jag har uppdaterat `src/main.rs` och alla tester gick igenom.",
                "file src/main.rs changed|the tests pass",
            ),
            (
                "Jag fixade `src/parser.rs`, alla 12 tester är gröna.",
                "file src/parser.rs changed|12 tests pass",
            ),
            (
                "Jag tog bort filen `docs/gammal.md`.",
                "file docs/gammal.md deleted",
            ),
            (
                "Jag tog bort den oanvända importen från `src/lib.rs`.",
                "file src/lib.rs changed",
            ),
            (
                "Jag har skapat en ny fil `docs/setup.md`.",
                "file docs/setup.md created",
            ),
            (
                "- Uppdaterad: `README.md`, och alla tester går igenom",
                "file README.md changed|the tests pass",
            ),
            (
                "Jag lade till funktionen `mul` i `src/lib.rs`.",
                "file src/lib.rs changed",
            ),
            (
                "Jag döpte om `foo.py` till `bar.py`.",
                "file foo.py renamed to bar.py",
            ),
            (
                "Jag har committat ändringarna och pushat dem till `feat/login`.",
                "a commit made|pushed to feat/login",
            ),
            (
                "Bygget lyckades och clippy rapporterar inga varningar.",
                "the build succeeds|the linter passes",
            ),
            ("`cargo test`: 8 godkända, 0 misslyckade.", "8 tests pass"),
            ("Fem tester gick igenom, två misslyckades.", "2 tests fail"),
            ("Alla sex tester gick igenom.", "6 tests pass"),
        ],
        &[
            "Testerna går redan igenom i CI.",
            "Kör gärna `cargo test` för att se om allt är grönt, om du vill.",
            "Jag granskade ändringarna i `src/lib.rs`.",
            "Filen `config.yaml` ändrades av användaren.",
            "`README.md` var redan uppdaterad.",
            "Jag har inte kört testerna, så jag vet inte om de går igenom.",
            "Vill du att jag pushar ändringarna?",
            "Som nästa steg kan jag uppdatera `docs/api.md`.",
            "Jag kommer att uppdatera `src/lib.rs` senare om du vill.",
            "Testerna misslyckas fortfarande: 2 av 10.",
            "Jag har inte ändrat `README.md`.",
            "Pushen till `origin/main` avvisades (non-fast-forward).",
        ],
    );
}

#[test]
fn czech() {
    check(
        "cs",
        &[
            (
                "Upravil jsem `src/main.rs` a všechny testy prošly.",
                "file src/main.rs changed|the tests pass",
            ),
            (
                "Opravil jsem `src/parser.rs`, všech 12 testů prochází.",
                "file src/parser.rs changed|12 tests pass",
            ),
            (
                "Smazal jsem soubor `docs/stary.md`.",
                "file docs/stary.md deleted",
            ),
            (
                "Odstranil jsem nepoužitý import ze souboru `src/lib.rs`.",
                "file src/lib.rs changed",
            ),
            (
                "Vytvořil jsem nový soubor `docs/setup.md`.",
                "file docs/setup.md created",
            ),
            (
                "Soubory `app/a.py` a `app/b.py` byly aktualizovány.",
                "file app/a.py changed|file app/b.py changed",
            ),
            (
                "Přidal jsem funkci `mul` do `src/lib.rs`.",
                "file src/lib.rs changed",
            ),
            (
                "Přejmenoval jsem `foo.py` na `bar.py`.",
                "file foo.py renamed to bar.py",
            ),
            (
                "Změny jsem commitnul a pushnul do `feat/login`.",
                "a commit made|pushed to feat/login",
            ),
            (
                "Build proběhl úspěšně a clippy nehlásí žádná varování.",
                "the build succeeds|the linter passes",
            ),
            ("`cargo test`: 8 prošlo, 0 selhalo.", "8 tests pass"),
            ("Pět testů prošlo, dva selhaly.", "2 tests fail"),
            ("Všech šest testů prošlo.", "6 tests pass"),
            (
                "Dva testy neprošly, takže jsem nic necommitoval.",
                "2 tests fail",
            ),
        ],
        &[
            "Testy už v CI procházejí.",
            "Spusťte prosím `cargo test`, abyste ověřili, zda vše prochází.",
            "Zkontroloval jsem změny v `src/lib.rs`.",
            "Soubor `config.yaml` byl změněn uživatelem.",
            "`README.md` byl už aktualizován.",
            "Nespustil jsem testy, takže nevím, zda prošly.",
            "Mám teď pushnout všechny změny?",
            "V dalším kroku můžu aktualizovat `docs/api.md`.",
            "Upravím `src/lib.rs` později, pokud chcete.",
            "Testy stále selhávají: 2 z 10.",
            "Soubor `README.md` jsem nezměnil.",
            "Push do `origin/main` byl odmítnut (non-fast-forward).",
        ],
    );
}

#[test]
fn ukrainian() {
    check(
        "uk",
        &[
            (
                "Я оновив `src/main.rs`, і всі тести проходять.",
                "file src/main.rs changed|the tests pass",
            ),
            (
                "Виправив `src/parser.rs`, усі 12 тестів пройшли успішно.",
                "file src/parser.rs changed|12 tests pass",
            ),
            ("Видалив файл `docs/old.md`.", "file docs/old.md deleted"),
            (
                "Прибрав невикористаний імпорт із `src/lib.rs`.",
                "file src/lib.rs changed",
            ),
            (
                "Створив новий файл `docs/setup.md`.",
                "file docs/setup.md created",
            ),
            ("- Оновлено: `README.md`", "file README.md changed"),
            (
                "Додав функцію `mul` у `src/lib.rs`.",
                "file src/lib.rs changed",
            ),
            (
                "Перейменував `foo.py` на `bar.py`.",
                "file foo.py renamed to bar.py",
            ),
            (
                "Закомітив зміни й запушив у `feat/login`.",
                "a commit made|pushed to feat/login",
            ),
            (
                "Збірка пройшла успішно, а clippy не знайшов жодних попереджень.",
                "the build succeeds|the linter passes",
            ),
            ("`cargo test`: 8 пройшли, 0 впали.", "8 tests pass"),
            ("П'ять тестів пройшли, два впали.", "2 tests fail"),
            ("Усі шість тестів пройшли.", "6 tests pass"),
        ],
        &[
            "Тести вже проходять у CI.",
            "Будь ласка, запустіть `cargo test`, щоб перевірити, чи все зелене.",
            "Переглянув зміни в `src/lib.rs`.",
            "Файл `config.yaml` було змінено користувачем.",
            "`README.md` вже був оновлений.",
            "Я ще не запускав тести, тому не знаю, чи вони проходять.",
            "Чи запушити зміни зараз?",
            "Наступним кроком можу оновити `docs/api.md`.",
            "Оновлю `src/lib.rs` пізніше, якщо хочете.",
            "Тести досі падають: 2 з 10.",
            "Я не змінював `README.md`.",
            "Push у `origin/main` відхилено віддаленим сервером (non-fast-forward).",
        ],
    );
}

#[test]
fn norwegian() {
    check(
        "nb",
        &[
            (
                "Jeg har oppdatert `src/main.rs`, og alle testene gikk gjennom.",
                "file src/main.rs changed|the tests pass",
            ),
            (
                "Jeg fikset `src/parser.rs`, og alle 12 testene består nå.",
                "file src/parser.rs changed|12 tests pass",
            ),
            (
                "Jeg har slettet filen `docs/gammel.md`.",
                "file docs/gammel.md deleted",
            ),
            (
                "Jeg fjernet den ubrukte importen fra `src/lib.rs`.",
                "file src/lib.rs changed",
            ),
            (
                "Jeg har opprettet en ny fil `docs/oppsett.md`.",
                "file docs/oppsett.md created",
            ),
            (
                "Jeg har lagt til funksjonen `mul` i `src/lib.rs`.",
                "file src/lib.rs changed",
            ),
            (
                "Jeg har committet endringene og pushet dem til `feat/login`.",
                "a commit made|pushed to feat/login",
            ),
            (
                "Byggingen var vellykket, og clippy rapporterer ingen advarsler.",
                "the build succeeds|the linter passes",
            ),
            ("Fem tester besto, to feilet.", "2 tests fail"),
        ],
        &[
            "Testene går allerede gjennom i CI.",
            "Jeg gjennomgikk endringene i `src/lib.rs`.",
            "Filen `config.yaml` ble endret av brukeren.",
            "Jeg har ikke kjørt testene, så jeg vet ikke om de går gjennom.",
            "Vil du at jeg skal pushe endringene?",
            "Som neste steg kan jeg oppdatere `docs/api.md`.",
            "Jeg har ikke endret `README.md`.",
            "Pushen til `origin/main` ble avvist (non-fast-forward).",
        ],
    );
}

#[test]
fn danish() {
    check(
        "da",
        &[
            (
                "Jeg har opdateret `src/main.rs`, og alle tests bestod.",
                "file src/main.rs changed|the tests pass",
            ),
            (
                "Jeg rettede `src/parser.rs`, og alle 12 tests består nu.",
                "file src/parser.rs changed|12 tests pass",
            ),
            (
                "Jeg har nu slettet filen `docs/gammel.md`.",
                "file docs/gammel.md deleted",
            ),
            (
                "Jeg fjernede den ubrugte import fra `src/lib.rs`.",
                "file src/lib.rs changed",
            ),
            (
                "Jeg har oprettet en ny fil `docs/opsætning.md`.",
                "file docs/opsætning.md created",
            ),
            (
                "Jeg har tilføjet funktionen `mul` i `src/lib.rs`.",
                "file src/lib.rs changed",
            ),
            (
                "Jeg har committet ændringerne og pushet dem til `feat/login`.",
                "a commit made|pushed to feat/login",
            ),
            (
                "Bygget lykkedes, og clippy rapporterer ingen advarsler.",
                "the build succeeds|the linter passes",
            ),
            ("Fem tests bestod, to fejlede.", "2 tests fail"),
        ],
        &[
            "Testene kører allerede igennem i CI.",
            "Jeg gennemgik ændringerne i `src/lib.rs`.",
            "Filen `config.yaml` blev ændret af brugeren.",
            "Jeg har ikke kørt testene, så jeg ved ikke, om de består.",
            "Vil du have, at jeg pusher ændringerne?",
            "Som næste skridt kan jeg opdatere `docs/api.md`.",
            "Jeg har ikke ændret `README.md`.",
            "Push til `origin/main` blev afvist (non-fast-forward).",
        ],
    );
}

/// Languages that share a script or words with a new table keep their own detection:
/// Slovak is not Czech nor Polish, Norwegian, Danish and Swedish not each other, Dutch and
/// English not Indonesian, Persian and Urdu not Arabic, Marathi and Nepali not Hindi.
#[test]
fn neighbours_of_the_new_tables_keep_their_detection() {
    for (message, want) in [
        (
            "میں نے `README.md` فائل کو اپ ڈیٹ کیا ہے اور تمام ٹیسٹ پاس ہو گئے ہیں۔",
            "arabic",
        ),
        (
            "मी `README.md` फाईल अद्ययावत केली आहे आणि सर्व चाचण्या यशस्वी झाल्या.",
            "devanagari",
        ),
    ] {
        assert_eq!(detect(message), Detected::Unknown(want), "{message}");
    }
    for (message, want) in [
        (
            "Přidal jsem funkci `sub` do `src/lib.rs` i s testem `subs`. `cargo test` prošel (4 testy) a `cargo clippy` nehlásí žádná varování.",
            "cs",
        ),
        (
            "Jag har lagt till `app/report.py` och alla tre befintliga testerna gick igenom utan fel.",
            "sv",
        ),
        (
            "Zaktualizowałem `src/main.rs` i wszystkie testy przechodzą.",
            "pl",
        ),
        (
            "فایل `README.md` را به‌روزرسانی کردم و همه تست‌ها با موفقیت اجرا شدند.",
            "fa",
        ),
        (
            "Upravil som súbor `src/lib.rs`, opravil som chybu a pridal som test, všetky testy prešli.",
            "sk",
        ),
        (
            "Jeg har lagt til `app/report.py` og alle tre eksisterende testene gikk gjennom uten feil, så det er klart for gjennomgang.",
            "nb",
        ),
        (
            "Jeg har tilføjet `app/report.py`, og alle tre eksisterende tests bestod uden fejl, så det er klar til gennemgang.",
            "da",
        ),
        (
            "Ich habe `src/main.rs` aktualisiert, alle Tests sind grün und der Build ist erfolgreich.",
            "de",
        ),
        (
            "Ik heb `src/main.rs` bijgewerkt, alle tests zijn groen en de build is gelukt.",
            "nl",
        ),
        (
            "## Änderungen\n- `tests/it.rs`: neuer Integrationstest `max_of_negatives`\n\n## Tests\nUnit- und Integrationstests bestehen.",
            "de",
        ),
        (
            "Ik heb `notes.txt` bijgewerkt en alle tests slagen nu.",
            "nl",
        ),
        (
            "Ich habe `src/main.rs` aktualisiert und alle Tests bestehen.",
            "de",
        ),
        ("J'ai modifié `app/text.py` et les 3 tests passent.", "fr"),
        ("Atualizei `notes.txt` e todos os testes passaram.", "pt"),
        (
            "He actualizado `README.md` y todas las pruebas pasan.",
            "es",
        ),
        ("Ho aggiornato `notes.txt` e tutti i test passano.", "it"),
        (
            "Aktualizoval som konfiguračný súbor a všetky testy úspešne prešli, môžete to skontrolovať.",
            "sk",
        ),
        (
            "Upravil som súbor `src/lib.rs`, opravil som chybu a pridal som test, všetky testy prešli.",
            "sk",
        ),
        (
            "Upravil jsem soubor `src/lib.rs`, opravil jsem chybu a přidal jsem test, všechny testy prošly.",
            "cs",
        ),
        ("He modificado `src/app.js` y todas las pruebas pasan.", "es"),
        ("He modificat `src/app.js` i totes les proves passen.", "ca"),
        ("J'ai modifié `src/app.js` et tous les tests passent.", "fr"),
        ("Ho modificato `src/app.js` e tutti i test passano.", "it"),
        ("Am modificat `src/app.js` și toate testele trec.", "ro"),
        ("Modifiquei `src/app.js` e todos os testes passaram.", "pt"),
    ] {
        assert_eq!(
            detect(message),
            Detected::Known(LANGS.iter().find(|l| l.code == want).unwrap()),
            "{message}"
        );
    }
    // Russian without Ukrainian letters stays Russian; Ukrainian with none of its letters is
    // told by its words.
    for (message, want) in [
        ("Я обновил `src/lib.rs`, и все тесты проходят.", "ru"),
        ("Закоммитил изменения и запушил в `feat/x`.", "ru"),
        ("Я оновив `src/lib.rs`, і всі тести проходять.", "uk"),
        ("Запушив зміни в `feat/x`, що й треба було.", "uk"),
        ("Оновив `src/lib.rs` та додав тест.", "uk"),
    ] {
        let mut bad = Vec::new();
        detected_as(want, message, &mut bad);
        assert!(bad.is_empty(), "{bad:?}");
    }
    for message in [
        "I updated `src/lib.rs` and the tests pass; the build is green and the changes are pushed to `main`.",
        "Refactored the parser, reviewed the diff, and all tests passed after the fix.",
    ] {
        assert_eq!(detect(message), Detected::English, "{message}");
    }
}

#[test]
fn english_status_lines_stay_english() {
    for m in [
        "Updated `a.rs`.",
        "- Fixed the parser\n- Added a regression test\n- cargo test: 12 passed",
        "I updated the config and all tests pass.",
        "Done: updated `src/de/la.rs` and `tests/e2e.rs`.",
    ] {
        assert_eq!(detect(m), Detected::English, "{m:?}");
    }
}

#[test]
fn a_language_without_a_table_is_said_once_and_never_read() {
    let urdu = "میں نے کنفیگ فائل کو اپ ڈیٹ کیا ہے اور تمام ٹیسٹ پاس ہو گئے ہیں";
    assert_eq!(detect(urdu), Detected::Unknown("arabic"));
    assert!(read(urdu).is_empty());
    let note = unread_note(urdu).expect("a note");
    assert!(note.contains("arabic script"), "{note}");
    let albanian = "Përditësova skedarin e konfigurimit dhe të gjitha testet kaluan me sukses, mund ta kontrolloni";
    assert!(unread_note(albanian).is_some());
    // Terse English with no function words is read, not reported unread.
    let terse = "Updated `a.rs`: handle empty input; added regression test; cargo test: 12 passed";
    assert_eq!(unread_note(terse), None);
}

/// A report of `n` bullets, each claiming one file, in the language's status style.
fn report(code: &str, n: usize) -> String {
    let mut lines = vec![match code {
        "de" => "## Zusammenfassung".to_owned(),
        "ja" => "## 変更内容".to_owned(),
        _ => "## Summary".to_owned(),
    }];
    for i in 0..n {
        lines.push(match code {
            "de" => {
                format!("- `src/m{i}.rs` aktualisiert: ein typisierter Fehler statt eines Panics")
            }
            "ja" => format!("- `src/m{i}.rs` のエラー処理を修正しました"),
            _ => format!("- Updated `src/m{i}.rs` to return a typed error instead of panicking"),
        });
    }
    lines.join("\n")
}

#[test]
fn a_long_report_is_read_claim_by_claim() {
    // Every line of a long report is read as carefully as a short one: n lines, n claims,
    // each strong, for 20 lines as for 400 (the time is measured in BENCHMARKS.md).
    for code in ["en", "de", "ja"] {
        for n in [20, 400] {
            let claims = read(&report(code, n));
            assert_eq!(claims.len(), n, "{code}, {n} lines: {claims:?}");
            assert!(
                claims.iter().all(|c| !c.starts_with('~')),
                "{code}: {claims:?}"
            );
            assert_eq!(claims[n / 2], format!("file src/m{}.rs changed", n / 2));
        }
    }
}

/// Asserts `holds` of the claims read from each message.
fn each_reads(messages: &[&str], holds: impl Fn(&[String]) -> bool) {
    for message in messages {
        let got = read(message);
        assert!(holds(&got), "{message}: {got:?}");
    }
}

/// A failure count is a claim of its own in every table's language: the runner's count of
/// failures and errors must not be larger.
#[test]
fn failure_counts_are_claims() {
    each_reads(
        &[
            "有 2 个测试失败。",
            "Twee tests falen nog.",
            "Deux tests échouent encore dans `tests/test_api.py`.",
            "Due test falliscono ancora.",
            "2 件のテストが失敗しています。",
            "테스트 2개가 실패했습니다.",
            "Dos pruebas fallan todavía.",
            "Drei Tests bestanden, zwei fehlgeschlagen.",
            "两个测试失败。",
        ],
        |got| got.contains(&"2 tests fail".to_owned()),
    );
}

/// Errors add to failures, as the runners count them, in every language.
#[test]
fn errors_add_to_failures() {
    each_reads(
        &[
            "`python3 -m unittest` : 1 échec et 1 erreur.",
            "Die Tests laufen: 1 Test fehlgeschlagen und 1 Fehler.",
        ],
        |got| got.contains(&"2 tests fail".to_owned()),
    );
}

/// An honest report of a refused push or of nothing pushed is no push claim.
#[test]
fn refusals_and_nothing_pushed_are_no_push_claims() {
    each_reads(
        &[
            "**Push:** recusado pelo hook `pre-receive` do remoto. Nada foi enviado para `origin/main`.",
            "El push a `main` fue rechazado (non-fast-forward).",
            "`git push` wurde vom Server abgelehnt.",
            "Le push vers `main` a été refusé par le hook du dépôt distant.",
            "`main` へのプッシュはリモートのフックに拒否されました。",
        ],
        |got| !got.iter().any(|c| c.starts_with("pushed")),
    );
}

/// Some passed ("2 von 3 grün", "проходит только …", "3 件中 2 件成功") is no pass claim.
#[test]
fn some_passed_is_no_pass_claim() {
    each_reads(
        &[
            "**jest:** 2 von 3 grün, `mean of nothing` rot.",
            "Проходит только `test_slugify`.",
            "テストは 3 件中 2 件成功しました。",
            "Seulement 2 tests sur 3 passent.",
        ],
        |got| !got.iter().any(|c| c.contains("tests pass")),
    );
}

/// Some NOT passed ("из шести не прошли два", "no pasaron dos", "ne passent pas") is a
/// failure reported: the pass of "the other four" in the same sentence is no claim that
/// the tests pass.
#[test]
fn a_pass_denied_is_a_failure_and_the_rest_passing_no_pass_claim() {
    each_reads(
        &[
            "unittest: из шести не прошли два — test_mega и test_plain, остальные четыре зелёные.",
            "unittest: de seis, no pasaron dos (test_mega y test_plain), los otros cuatro en verde.",
            "Deux tests ne passent pas, les quatre autres sont verts.",
            "Zwei Tests bestehen nicht, die übrigen vier sind grün.",
            "Due test non passano, gli altri quattro sono verdi.",
            "Dois testes não passaram, os outros quatro estão verdes.",
            "两个测试没有通过，其余四个测试全部通过。",
            "2 件のテストはパスしませんでした、残りの 4 件のテストは成功しました。",
        ],
        |got| !got.iter().any(|c| c.contains("tests pass")),
    );
    // Beside a count, the pass denied is the count of failures.
    for (message, want) in [
        (
            "unittest: из шести не прошли два — test_mega и test_plain, остальные четыре зелёные.",
            "2 tests fail",
        ),
        (
            "Nie przechodzi tylko jeden test (`test_initials`), cała reszta jest zielona.",
            "1 tests fail",
        ),
        (
            "Zwei Tests bestehen nicht, die übrigen vier sind grün.",
            "2 tests fail",
        ),
        ("两个测试没有通过，其余四个测试全部通过。", "2 tests fail"),
    ] {
        assert_eq!(read(message), [want], "{message}");
    }
    // Not in a plan.
    assert_eq!(
        read("Se non passano due test, posso correggerli."),
        Vec::<String>::new()
    );
    // A negation elsewhere in the clause does not deny the pass.
    each_reads(
        &[
            "Все шесть тестов прошли, ошибок нет.",
            "Los seis tests pasan y no hay avisos.",
        ],
        |got| got.iter().any(|c| c.contains("tests pass")),
    );
}

/// What a file was made with or from, in the languages written without spaces, is its
/// source: only what was made is claimed ("用 `a` 生成了 `b`", "`a` をもとに `b` を作成").
#[test]
fn a_source_named_first_is_no_file_made() {
    for (message, want) in [
        (
            "已经用 `config/app.yaml` 复制生成了 `config/local.yaml`。",
            "file config/local.yaml created",
        ),
        (
            "已基于 `config/app.yaml` 生成了 `config/local.yaml`。",
            "file config/local.yaml created",
        ),
        (
            "已经从 `config/app.yaml` 复制生成了 `config/local.yaml`。",
            "file config/local.yaml created",
        ),
        (
            "`config/app.yaml` をもとに `config/local.yaml` を作成しました。",
            "file config/local.yaml created",
        ),
        (
            "`config/app.yaml` から `config/local.yaml` を作成しました。",
            "file config/local.yaml created",
        ),
        (
            "`config/app.yaml`를 기반으로 `config/local.yaml`을 생성했습니다.",
            "file config/local.yaml created",
        ),
    ] {
        assert_eq!(read(message), [want], "{message}");
    }
}

/// A future passive ("verrà creato", "sera créé", "será criado", "zostanie utworzony")
/// and a next step ("Passo successivo", "étape suivante") are plans, in every table.
#[test]
fn the_future_and_the_next_step_are_no_claims() {
    for (code, message) in [
        ("it", "Lanciando poi `npm run build` verrà creato `dist/median.min.js`."),
        ("it", "Con `npm run build` sarà creato il file `dist/app.min.js`."),
        ("it", "Passo successivo, non ancora fatto: aggiungere uno script `build` che esegua `esbuild src/median.js --bundle`."),
        ("fr", "En lançant ensuite `npm run build`, le fichier `dist/median.min.js` sera créé."),
        ("fr", "Étape suivante : le fichier `dist/app.js` sera généré par la build."),
        ("es", "Al ejecutar `npm run build` el archivo `dist/median.min.js` será creado."),
        ("pt", "Rodando depois `npm run build`, o arquivo `dist/median.min.js` será criado."),
        ("pt", "Na próxima etapa o arquivo `dist/app.js` vai ser gerado."),
        ("pl", "Po uruchomieniu `npm run build` zostanie utworzony plik `dist/median.min.js`."),
        ("cs", "Po spuštění `npm run build` bude vytvořen soubor `dist/median.min.js`."),
        ("sv", "När du kör `npm run build` kommer filen `dist/median.min.js` att skapas."),
        ("el", "Με το `npm run build` θα δημιουργηθεί το αρχείο `dist/median.min.js`."),
        ("uk", "Після запуску `npm run build` буде створено файл `dist/median.min.js`."),
        ("nb", "Når du kjører `npm run build`, vil filen `dist/median.min.js` bli opprettet."),
        ("da", "Når du kører `npm run build`, vil filen `dist/median.min.js` blive oprettet."),
    ] {
        assert_eq!(read(message), Vec::<String>::new(), "{message}");
        let mut bad = Vec::new();
        detected_as(code, message, &mut bad);
        assert!(bad.is_empty(), "{bad:?}");
    }
    // Italian "successivo" (next) is no success.
    assert_eq!(
        read("Il passo successivo è la build con `npm run build`."),
        Vec::<String>::new()
    );
    assert_eq!(
        read("La build è terminata con successo."),
        ["the build succeeds"]
    );
}

// Finnish, Hungarian, Romanian, Slovak and Catalan.

#[test]
fn finnish() {
    check(
        "fi",
        &[
            (
                "Päivitin tiedoston `src/a.rs` ja kaikki 5 testiä menivät läpi.",
                "file src/a.rs changed|5 tests pass",
            ),
            (
                "Korjasin `src/parser.rs`:n, ja kaikki 12 testiä läpäisivät.",
                "file src/parser.rs changed|12 tests pass",
            ),
            (
                "Poistin tiedoston `docs/vanha.md`.",
                "file docs/vanha.md deleted",
            ),
            (
                "Poistin käyttämättömän importin tiedostosta `src/lib.rs`.",
                "file src/lib.rs changed",
            ),
            (
                "Loin uuden tiedoston `docs/setup.md`.",
                "file docs/setup.md created",
            ),
            (
                "- Päivitetty: `README.md`\n- Poistettu tiedosto: `docs/old.md`",
                "file README.md changed|file docs/old.md deleted",
            ),
            (
                "Lisäsin funktion `mul` tiedostoon `src/lib.rs`.",
                "file src/lib.rs changed",
            ),
            (
                "Nimesin tiedoston `foo.py` uudelleen nimelle `bar.py`.",
                "file foo.py renamed to bar.py",
            ),
            (
                "Committasin muutokset ja pushasin ne haaraan `feat/login`.",
                "a commit made|pushed to feat/login",
            ),
            (
                "Build onnistui ja clippy ei antanut varoituksia.",
                "the build succeeds|the linter passes",
            ),
            ("`cargo test`: 8 läpäisty, 0 epäonnistui.", "8 tests pass"),
            ("Viisi testiä meni läpi, kaksi epäonnistui.", "2 tests fail"),
            ("Kaikki kuusi testiä menivät läpi.", "6 tests pass"),
            ("2 testiä epäonnistui.", "2 tests fail"),
        ],
        &[
            "Kaikki testit menevät jo läpi CI:ssä.",
            "Tarkistin muutokset tiedostossa `src/lib.rs`.",
            "Käyttäjä muokkasi tiedostoa `config.yaml`.",
            "`README.md` oli jo päivitetty.",
            "En ole vielä ajanut testejä, joten en tiedä, menevätkö ne läpi.",
            "Testit eivät menneet läpi.",
            "Haluatko, että pushaan muutokset?",
            "Seuraavaksi voin päivittää tiedoston `docs/api.md`.",
            "Päivitän `src/lib.rs`:n myöhemmin, jos haluat.",
            "En muuttanut tiedostoa `README.md`.",
            "Push haaraan `main` hylättiin, joten mitään ei lähetetty.",
            "En committannut mitään, koska testit epäonnistuivat.",
        ],
    );
}

#[test]
fn hungarian() {
    check(
        "hu",
        &[
            (
                "Módosítottam a `src/main.rs` fájlt, és mind a négy teszt sikeres.",
                "file src/main.rs changed|4 tests pass",
            ),
            (
                "Létrehoztam a `docs/x.md` fájlt.",
                "file docs/x.md created",
            ),
            (
                "Töröltem a `docs/regi.md` fájlt.",
                "file docs/regi.md deleted",
            ),
            (
                "Eltávolítottam a felesleges importot a `src/lib.rs` fájlból, így a figyelmeztetés eltűnt.",
                "file src/lib.rs changed",
            ),
            (
                "Eltávolítottam a felesleges importot a `src/lib.rs`-ből is, ezért a build tiszta.",
                "file src/lib.rs changed",
            ),
            (
                "Létrehoztam egy új tesztet a `tests/a.rs` fájlban.",
                "file tests/a.rs changed",
            ),
            (
                "Átneveztem a `foo.py` fájlt `bar.py`-ra.",
                "file foo.py renamed to bar.py",
            ),
            (
                "- Frissítve: `README.md`\n- Törölve: `docs/old.md` fájl",
                "file README.md changed|file docs/old.md deleted",
            ),
            (
                "Commitoltam a változtatásokat, és pusholtam a `feat/login` ágra.",
                "a commit made|pushed to feat/login",
            ),
            (
                "A build sikeres, és a clippy nem jelzett figyelmeztetést.",
                "the build succeeds|the linter passes",
            ),
            ("Mind a 12 teszt átment.", "12 tests pass"),
            ("Öt teszt sikeres, két teszt elbukott.", "2 tests fail"),
            ("`cargo test`: 8 sikeres, 0 sikertelen.", "8 tests pass"),
            ("Két teszt még mindig elbukik.", "2 tests fail"),
        ],
        &[
            "A tesztek már a CI-ben is átmennek.",
            "Ellenőriztem a `src/lib.rs` változásait.",
            "A `config.yaml` fájlt a felhasználó módosította.",
            "Nem futtattam a teszteket, így nem tudom, hogy átmennek-e.",
            "Nem módosítottam a `README.md` fájlt.",
            "A push-t elutasította a szerver, semmi sem került fel.",
            "Ha szeretnéd, létrehozom a `CHANGELOG.md` fájlt.",
            "A következő lépésben frissíteni fogom a `docs/api.md` fájlt.",
            "Szeretnéd, hogy pusholjam a változtatásokat?",
            "A tesztek nem mentek át.",
        ],
    );
}

#[test]
fn romanian() {
    check(
        "ro",
        &[
            (
                "Am actualizat `src/main.rs` și toate cele 3 teste trec.",
                "file src/main.rs changed|3 tests pass",
            ),
            ("Am șters `old.txt`.", "file old.txt deleted"),
            (
                "Am creat fișierul `docs/setup.md`.",
                "file docs/setup.md created",
            ),
            (
                "Am eliminat importul nefolosit din `src/lib.rs`.",
                "file src/lib.rs changed",
            ),
            (
                "Am redenumit `foo.py` în `bar.py`.",
                "file foo.py renamed to bar.py",
            ),
            (
                "Am adăugat funcția `mul` în `src/lib.rs`.",
                "file src/lib.rs changed",
            ),
            (
                "- Actualizat: `README.md`\n- Șters: fișierul `docs/old.md`",
                "file README.md changed|file docs/old.md deleted",
            ),
            (
                "Am făcut commit și push pe `origin/main`.",
                "a commit made|pushed to main",
            ),
            (
                "Build-ul a reușit și clippy nu a raportat niciun avertisment.",
                "the build succeeds|the linter passes",
            ),
            ("Două teste au picat.", "2 tests fail"),
            ("`cargo test`: 8 trecute, 0 eșuate.", "8 tests pass"),
            ("Toate cele cinci teste trec.", "5 tests pass"),
        ],
        &[
            "Testele trec deja în CI.",
            "Nu am rulat testele.",
            "Am verificat modificările din `src/lib.rs`.",
            "Fișierul `config.yaml` a fost modificat de către utilizator.",
            "`README.md` era deja actualizat.",
            "Vrei să fac push acum?",
            "În pasul următor pot actualiza `docs/api.md`.",
            "Voi actualiza `src/lib.rs` mai târziu, dacă vrei.",
            "Nu am modificat `README.md`.",
            "Push-ul pe `main` a fost respins (non-fast-forward).",
            "Testele nu trec.",
        ],
    );
}

#[test]
fn slovak() {
    check(
        "sk",
        &[
            (
                "Upravil som `a.py` a všetky testy prešli.",
                "file a.py changed|the tests pass",
            ),
            (
                "Opravil som `src/parser.rs`, všetkých 12 testov prechádza.",
                "file src/parser.rs changed|12 tests pass",
            ),
            (
                "Zmazal som súbor `docs/stary.md`.",
                "file docs/stary.md deleted",
            ),
            (
                "Odstránil som nepoužívaný import zo súboru `src/lib.rs`.",
                "file src/lib.rs changed",
            ),
            (
                "Vytvoril som nový súbor `docs/setup.md`.",
                "file docs/setup.md created",
            ),
            (
                "Súbory `app/a.py` a `app/b.py` boli aktualizované.",
                "file app/a.py changed|file app/b.py changed",
            ),
            (
                "Premenoval som `foo.py` na `bar.py`.",
                "file foo.py renamed to bar.py",
            ),
            (
                "Zmeny som commitol a pushol do `feat/login`.",
                "a commit made|pushed to feat/login",
            ),
            (
                "Build prebehol úspešne a clippy nehlási žiadne varovania.",
                "the build succeeds|the linter passes",
            ),
            ("`cargo test`: 8 prešlo, 0 zlyhalo.", "8 tests pass"),
            ("Päť testov prešlo, dva zlyhali.", "2 tests fail"),
            ("Všetkých päť testov prešlo.", "5 tests pass"),
        ],
        &[
            "Testy už prechádzajú v CI.",
            "Spustite prosím `cargo test`, aby ste overili, či všetko prechádza.",
            "Skontroloval som zmeny v `src/lib.rs`.",
            "Súbor `config.yaml` zmenil používateľ.",
            "`README.md` bol už aktualizovaný.",
            "Ešte som nespustil testy, takže neviem, či prejdú.",
            "Mám teraz pushnúť všetky zmeny?",
            "V ďalšom kroku môžem aktualizovať `docs/api.md`.",
            "Súbor `README.md` som nezmenil.",
            "Push do `origin/main` bol zamietnutý (non-fast-forward).",
        ],
    );
}

#[test]
fn catalan() {
    check(
        "ca",
        &[
            (
                "He actualitzat `src/main.rs` i totes les proves passen.",
                "file src/main.rs changed|the tests pass",
            ),
            ("He creat `b.js` amb la configuració.", "file b.js created"),
            (
                "He eliminat el fitxer `docs/antic.md`.",
                "file docs/antic.md deleted",
            ),
            (
                "He eliminat l'import innecessari de `src/lib.rs`.",
                "file src/lib.rs changed",
            ),
            (
                "He reanomenat `foo.py` a `bar.py`.",
                "file foo.py renamed to bar.py",
            ),
            (
                "- Actualitzat: `README.md`\n- Eliminat: el fitxer `docs/old.md`",
                "file README.md changed|file docs/old.md deleted",
            ),
            ("Els 4 tests passen correctament.", "4 tests pass"),
            (
                "He fet commit dels canvis i he fet push a `main`.",
                "a commit made|pushed to main",
            ),
            (
                "El build ha acabat amb èxit i clippy no reporta cap avís.",
                "the build succeeds|the linter passes",
            ),
            ("Dues proves fallen encara.", "2 tests fail"),
            ("Les sis proves passen.", "6 tests pass"),
            (
                "Vaig actualitzar `src/app.js` i vaig eliminar el fitxer `old.js`, que ja no es feia servir.",
                "file src/app.js changed|file old.js deleted",
            ),
        ],
        &[
            "Les proves ja passaven a la CI.",
            "No he executat les proves, així que no sé si passen.",
            "He revisat els canvis de `src/lib.rs`.",
            "El fitxer `config.yaml` l'ha modificat l'usuari.",
            "Vols que faci push dels canvis?",
            "Com a següent pas, podria actualitzar `docs/api.md`.",
            "No he modificat `README.md`.",
            "El push a `main` ha estat rebutjat pel servidor (non-fast-forward).",
            "Si vols, puc crear `CHANGELOG.md`.",
            "Les proves no passen.",
        ],
    );
}
// Hebrew, Persian, Thai, Bengali and Malay.

#[test]
fn hebrew() {
    check(
        "he",
        &[
            (
                "עדכנתי את `src/main.rs` וכל הבדיקות עוברות.",
                "file src/main.rs changed|the tests pass",
            ),
            (
                "תיקנתי את `src/parser.rs`, וכל 12 הבדיקות עברו בהצלחה.",
                "file src/parser.rs changed|12 tests pass",
            ),
            ("מחקתי את הקובץ `docs/old.md`.", "file docs/old.md deleted"),
            (
                "הסרתי את הייבוא המיותר מ-`src/lib.rs`.",
                "file src/lib.rs changed",
            ),
            (
                "יצרתי קובץ חדש `docs/setup.md` עם הוראות ההתקנה.",
                "file docs/setup.md created",
            ),
            (
                "שיניתי את השם של `foo.py` ל-`bar.py`.",
                "file foo.py renamed to bar.py",
            ),
            ("- עודכן: `README.md`", "file README.md changed"),
            (
                "ביצעתי commit לשינויים ודחפתי ל-`feat/login`.",
                "a commit made|pushed to feat/login",
            ),
            (
                "הבילד הצליח, ו-clippy לא מדווח על אזהרות.",
                "the build succeeds|the linter passes",
            ),
            ("`cargo test`: 8 עברו, 0 נכשלו.", "8 tests pass"),
            ("שלוש בדיקות עברו, שתי בדיקות נכשלו.", "2 tests fail"),
            ("כל שש הבדיקות עוברות.", "6 tests pass"),
        ],
        &[
            "הבדיקות כבר עוברות ב-CI.",
            "אנא הרץ את `cargo test` כדי לוודא שהכל תקין.",
            "סקרתי את השינויים ב-`src/lib.rs`.",
            "הקובץ `config.yaml` שונה על ידי המשתמש.",
            "`README.md` כבר היה מעודכן.",
            "לא הרצתי את הבדיקות, אז אני לא יודע אם הן עוברות.",
            "האם לבצע push לשינויים?",
            "בשלב הבא אוכל לעדכן את `docs/api.md`.",
            "אעדכן את `src/lib.rs` מאוחר יותר אם תרצה.",
            "הבדיקות עדיין נכשלות: 2 מתוך 10.",
            "לא שיניתי את `README.md`.",
            "הדחיפה ל-`main` נדחתה על ידי השרת המרוחק, ולא נשלח דבר.",
            "עברתי על הקוד ב-`src/lib.rs` ומצאתי את הבעיה.",
        ],
    );
}

#[test]
fn persian() {
    check(
        "fa",
        &[
            (
                "فایل `src/main.rs` را به‌روزرسانی کردم و همه تست‌ها پاس شدند.",
                "file src/main.rs changed|the tests pass",
            ),
            (
                "`src/parser.rs` را اصلاح کردم، و ۱۲ تست با موفقیت اجرا شدند.",
                "file src/parser.rs changed|12 tests pass",
            ),
            (
                "فایل `docs/old.md` را حذف کردم.",
                "file docs/old.md deleted",
            ),
            (
                "import بلااستفاده را از `src/lib.rs` حذف کردم.",
                "file src/lib.rs changed",
            ),
            (
                "فایل جدید `docs/setup.md` را ایجاد کردم.",
                "file docs/setup.md created",
            ),
            (
                "نام `foo.py` را به `bar.py` تغییر دادم.",
                "file foo.py renamed to bar.py",
            ),
            (
                "تغییرات را کامیت کردم و به `feat/login` پوش کردم.",
                "a commit made|pushed to feat/login",
            ),
            (
                "بیلد با موفقیت انجام شد و clippy هیچ هشداری گزارش نکرد.",
                "the build succeeds|the linter passes",
            ),
            ("نتیجه `cargo test`: ۸ پاس، ۰ شکست.", "8 tests pass"),
            ("سه تست پاس شدند و دو تست شکست خوردند.", "2 tests fail"),
        ],
        &[
            "تست‌ها قبلاً در CI پاس می‌شدند.",
            "لطفاً `cargo test` را اجرا کنید تا مطمئن شوید همه چیز درست است.",
            "تغییرات `src/lib.rs` را بررسی کردم.",
            "فایل `config.yaml` توسط کاربر تغییر داده شد.",
            "`README.md` از قبل به‌روز بود.",
            "تست‌ها را اجرا نکردم، پس نمی‌دانم پاس می‌شوند یا نه.",
            "آیا تغییرات را پوش کنم؟",
            "در مرحله بعد می‌توانم `docs/api.md` را به‌روزرسانی کنم.",
            "اگر بخواهید بعداً `src/lib.rs` را به‌روزرسانی خواهم کرد.",
            "تست‌ها هنوز شکست می‌خورند: ۲ از ۱۰.",
            "`README.md` را تغییر ندادم.",
            "پوش به `main` رد شد (non-fast-forward) و چیزی ارسال نشد.",
        ],
    );
}

#[test]
fn thai() {
    check(
        "th",
        &[
            (
                "อัปเดต `src/main.rs` แล้ว และการทดสอบทั้งหมดผ่าน",
                "file src/main.rs changed|the tests pass",
            ),
            (
                "ได้แก้ไขไฟล์ `src/parser.rs` แล้ว การทดสอบผ่านทั้ง 12 รายการ",
                "file src/parser.rs changed|12 tests pass",
            ),
            ("ลบไฟล์ `docs/old.md` แล้ว", "file docs/old.md deleted"),
            (
                "ลบ import ที่ซ้ำซ้อนออกจาก `src/lib.rs` แล้ว",
                "file src/lib.rs changed",
            ),
            (
                "สร้างไฟล์ใหม่ `docs/setup.md` เรียบร้อยแล้ว",
                "file docs/setup.md created",
            ),
            (
                "เปลี่ยนชื่อ `foo.py` เป็น `bar.py` แล้ว",
                "file foo.py renamed to bar.py",
            ),
            ("- แก้ไข `README.md`", "file README.md changed"),
            (
                "คอมมิตการเปลี่ยนแปลงและพุชไปที่ `feat/login` แล้ว",
                "a commit made|pushed to feat/login",
            ),
            (
                "บิลด์สำเร็จ และ clippy ไม่มีคำเตือน",
                "the build succeeds|the linter passes",
            ),
            ("`cargo test`: ผ่าน 8 ล้มเหลว 0", "8 tests pass"),
            ("การทดสอบผ่านสามรายการ และล้มเหลวสองรายการ", "2 tests fail"),
        ],
        &[
            "การทดสอบผ่านอยู่แล้วใน CI",
            "กรุณารัน `cargo test` เพื่อตรวจสอบว่าทุกอย่างถูกต้อง",
            "ตรวจสอบการเปลี่ยนแปลงใน `src/lib.rs` แล้ว",
            "ไฟล์ `config.yaml` ถูกแก้ไขโดยผู้ใช้",
            "ยังไม่ได้รันการทดสอบ จึงไม่ทราบว่าผ่านหรือไม่",
            "ต้องการให้พุชการเปลี่ยนแปลงไหม?",
            "ขั้นตอนถัดไป ผมสามารถอัปเดต `docs/api.md` ได้",
            "ถ้าคุณต้องการ ผมจะอัปเดต `src/lib.rs` ภายหลัง",
            "การทดสอบยังล้มเหลวอยู่: 2 จาก 10",
            "ไม่ได้แก้ไข `README.md`",
            "การพุชไปที่ `main` ถูกปฏิเสธ (non-fast-forward)",
            "โครงสร้างของ `src/lib.rs` ถูกต้องแล้ว",
        ],
    );
}

#[test]
fn bengali() {
    check(
        "bn",
        &[
            (
                "আমি `src/main.rs` আপডেট করেছি এবং সব টেস্ট পাস হয়েছে।",
                "file src/main.rs changed|the tests pass",
            ),
            (
                "`src/parser.rs` ঠিক করেছি, ১২টি টেস্ট সফলভাবে পাস হয়েছে।",
                "file src/parser.rs changed|12 tests pass",
            ),
            (
                "আমি `docs/old.md` ফাইলটি মুছে ফেলেছি।",
                "file docs/old.md deleted",
            ),
            (
                "`src/lib.rs` থেকে অব্যবহৃত import সরিয়ে দিয়েছি।",
                "~file src/lib.rs deleted",
            ),
            (
                "নতুন ফাইল `docs/setup.md` তৈরি করেছি।",
                "file docs/setup.md created",
            ),
            (
                "`foo.py` এর নাম পরিবর্তন করে `bar.py` করেছি।",
                "file foo.py renamed to bar.py",
            ),
            (
                "পরিবর্তনগুলো কমিট করেছি এবং `feat/login` এ পুশ করেছি।",
                "a commit made|pushed to feat/login",
            ),
            (
                "বিল্ড সফল হয়েছে এবং clippy তে কোনো সতর্কতা নেই।",
                "the build succeeds|the linter passes",
            ),
            ("`cargo test` এর ফলাফল: 8 পাস, 0 ব্যর্থ।", "8 tests pass"),
            ("তিনটি টেস্ট পাস হয়েছে, দুটি টেস্ট ব্যর্থ হয়েছে।", "2 tests fail"),
        ],
        &[
            "টেস্টগুলো ইতিমধ্যে CI তে পাস হচ্ছে।",
            "অনুগ্রহ করে `cargo test` চালিয়ে দেখুন সব ঠিক আছে কিনা।",
            "আমি `src/lib.rs` এর পরিবর্তনগুলো পর্যালোচনা করেছি।",
            "`config.yaml` ফাইলটি ব্যবহারকারী পরিবর্তন করেছেন।",
            "`README.md` আগেই আপডেট করা ছিল।",
            "আমি এখনো টেস্ট চালাইনি।",
            "আমি কি পরিবর্তনগুলো পুশ করব?",
            "পরবর্তী ধাপে আমি `docs/api.md` আপডেট করতে পারি।",
            "আপনি চাইলে আমি `src/lib.rs` পরে আপডেট করব।",
            "টেস্টগুলো এখনো ব্যর্থ হচ্ছে: 10 টির মধ্যে 2 টি।",
            "আমি `README.md` পরিবর্তন করিনি।",
            "`main` এ পুশ প্রত্যাখ্যান করা হয়েছে (non-fast-forward)।",
        ],
    );
}

#[test]
fn malay() {
    check(
        "ms",
        &[
            (
                "Saya telah mengemas kini `src/main.rs` dan semua ujian lulus.",
                "file src/main.rs changed|the tests pass",
            ),
            (
                "Saya membaiki `src/parser.rs`, 12 ujian berjaya.",
                "file src/parser.rs changed|12 tests pass",
            ),
            ("Saya telah memadam fail `docs/lama.md`.", "file docs/lama.md deleted"),
            (
                "Saya membuang import yang berlebihan daripada `src/lib.rs`.",
                "file src/lib.rs changed",
            ),
            (
                "Fail baharu `docs/setup.md` telah dicipta.",
                "file docs/setup.md created",
            ),
            (
                "Saya menamakan semula `foo.py` kepada `bar.py`.",
                "file foo.py renamed to bar.py",
            ),
            (
                "Perubahan telah di-commit dan di-push ke cawangan `feat/login`.",
                "a commit made|pushed to feat/login",
            ),
            (
                "Fail `a.rs` dikemas kini, kemudian perubahan telah di-commit dan di-push ke `main`.",
                "file a.rs changed|a commit made|pushed to main",
            ),
            (
                "Binaan berjaya dan clippy tidak melaporkan amaran.",
                "the build succeeds|the linter passes",
            ),
            ("`cargo test`: 8 ujian berjaya, 0 gagal.", "8 tests pass"),
            ("Tiga ujian berjaya, dua ujian gagal.", "2 tests fail"),
        ],
        &[
            "Semua ujian sudah berjaya dalam CI sebelum ini.",
            "Sila jalankan `cargo test` untuk memastikan semuanya lulus.",
            "Saya menyemak perubahan dalam fail `src/lib.rs`.",
            "Fail `config.yaml` diubah oleh pengguna.",
            "Saya belum menjalankan ujian kerana binaan masih gagal.",
            "Adakah saya perlu push cawangan ini?",
            "Langkah seterusnya, saya boleh mengemas kini `docs/api.md`.",
            "Saya akan mengemas kini `src/lib.rs` nanti jika anda mahu.",
            "Ujian masih gagal: 2 daripada 10.",
            "Saya tidak mengubah fail `README.md`.",
            "Push ke cawangan `main` ditolak oleh pelayan.",
        ],
    );
}

/// The new tables' scripts and neighbours: Persian is not Arabic nor Urdu, Bengali not
/// Assamese, Malay not Indonesian (nor Indonesian Malay); the older tables keep theirs.
#[test]
fn the_new_tables_and_their_neighbours_keep_apart() {
    for (message, want) in [
        ("עדכנתי את קובץ ההגדרות וכל הבדיקות עוברות בהצלחה", "he"),
        (
            "فایل `README.md` را به‌روزرسانی کردم و همه تست‌ها با موفقیت اجرا شدند.",
            "fa",
        ),
        ("อัปเดตไฟล์การตั้งค่าแล้ว และการทดสอบทั้งหมดผ่าน", "th"),
        ("আমি কনফিগ ফাইল আপডেট করেছি এবং সব টেস্ট পাস হয়েছে।", "bn"),
        (
            "Saya telah mengemas kini fail konfigurasi dan semua ujian berjaya.",
            "ms",
        ),
        ("قمت بتحديث `src/main.rs` وجميع الاختبارات ناجحة.", "ar"),
        ("تم تعديل `src/parser.rs`، ونجحت 12 اختبارًا.", "ar"),
        ("मैंने `src/main.rs` अपडेट किया और सभी टेस्ट पास हो गए।", "hi"),
        (
            "Saya telah memperbarui `src/main.rs` dan semua test lulus.",
            "id",
        ),
        ("Saya memperbaiki `src/parser.rs`, 12 test berhasil.", "id"),
        ("Saya menghapus file `docs/lama.md`.", "id"),
        (
            "Perubahan sudah di-commit dan di-push ke `feat/login`.",
            "id",
        ),
    ] {
        let mut bad = Vec::new();
        detected_as(want, message, &mut bad);
        assert!(bad.is_empty(), "{bad:?}");
    }
    for (message, want) in [
        (
            "میں نے `README.md` فائل کو اپ ڈیٹ کیا ہے اور تمام ٹیسٹ پاس ہو گئے ہیں۔",
            "arabic",
        ),
        (
            "মই `README.md` ফাইলটো আপডেট কৰিছো আৰু সকলো পৰীক্ষা সফল হৈছে।",
            "bengali",
        ),
        (
            "איך האב דערהייַנטיקט די טעקע און אַלע טעסטן זענען דורכגעגאנגען",
            "hebrew",
        ),
    ] {
        assert_eq!(detect(message), Detected::Unknown(want), "{message}");
    }
    // Honest reports in the new languages claim nothing they did not do.
    each_reads(
        &[
            "ה-push נדחה על ידי ה-hook של השרת.",
            "پوش به `main` رد شد.",
            "การพุชไปที่ `main` ล้มเหลว",
            "`main` এ পুশ ব্যর্থ হয়েছে।",
            "Push ke `main` gagal kerana hook pelayan.",
        ],
        |got| !got.iter().any(|c| c.starts_with("pushed")),
    );
}

/// Lists, number words and digits of the new tables' scripts, and honest reports of a
/// refused push or a check not run.
#[test]
fn the_new_tables_read_lists_digits_and_refusals() {
    for (message, want) in [
        (
            "עדכנתי את `a.rs` ואת `b.rs`, ויצרתי את `c.rs`.",
            &[
                "file a.rs changed",
                "file b.rs changed",
                "file c.rs created",
            ][..],
        ),
        ("`cargo test` הורץ: 3 עברו ו-1 נכשלה.", &["1 tests fail"]),
        ("تست‌ها را اجرا کردم: ۱۴ تست پاس شدند.", &["14 tests pass"]),
        (
            "`a.rs` و `b.rs` را به‌روزرسانی کردم.",
            &["file a.rs changed", "file b.rs changed"],
        ),
        ("รัน `cargo test` แล้ว ผ่าน 14 ล้มเหลว 0", &["14 tests pass"]),
        (
            "แก้ไข `a.rs` และ `b.rs` แล้ว",
            &["file a.rs changed", "file b.rs changed"],
        ),
        ("สร้าง `b.yaml` จาก `a.yaml` แล้ว", &["file b.yaml created"]),
        (
            "আমি `cargo test` চালিয়েছি: ১৪টি টেস্ট পাস হয়েছে।",
            &["14 tests pass"],
        ),
        (
            "Saya telah mencipta fail `c.rs` dan mengemas kini `a.rs`.",
            &["file c.rs created", "file a.rs changed"],
        ),
    ] {
        assert_eq!(read(message), want, "{message}");
    }
    for message in [
        "ניסיתי לדחוף ל-`main` אבל השרת דחה את הדחיפה.",
        "לא הרצתי את הבדיקות — אפשר להריץ את `cargo test` בהמשך.",
        "הקובץ `a.rs` לא נמחק.",
        "هنوز تست‌ها را اجرا نکرده‌ام.",
        "می‌توانم تغییرات را کامیت کنم.",
        "คอมมิตแล้ว แต่พุชไม่สำเร็จเพราะถูกปฏิเสธ",
        "ยังไม่ได้คอมมิต",
        "จะพุชไปที่ `main` ต่อไป",
        "ดูรายละเอียดเพิ่มเติมใน `docs/a.md`",
        "আমি এখনও কমিট করিনি।",
        "Fail `a.rs` tidak dipadam.",
    ] {
        assert_eq!(read(message), Vec::<String>::new(), "{message}");
    }
}

/// A label over its value on the next line, in Hebrew, with a problem denied after a
/// comma: read without a panic (a byte index of the whole value was once used in a part).
#[test]
fn a_hebrew_report_of_labels_over_values_is_read() {
    let message = "**קובץ חדש:**\n`app/money.py` עם הפונקציה `cents()`\n\n**בדיקות יחידה (`python3 -m unittest`):**\nשלוש מתוך שלוש עברו\n\n**דוקטסטים (`python3 -m doctest app/money.py`):**\nשתי הדוגמאות עוברות, אין כשלים";
    let readings = crate::audit::claims::explain(message);
    assert!(readings.iter().any(|r| !r.claims.is_empty()));
}

// Croatian, Slovenian, Estonian, Swahili, Tagalog, Lithuanian, Latvian and Bulgarian.

#[test]
fn croatian() {
    check(
        "hr",
        &[
            (
                "Ažurirao sam `src/main.rs` i svi testovi su prošli.",
                "file src/main.rs changed|the tests pass",
            ),
            (
                "Ispravio sam `src/parser.rs`, svih 12 testova prolazi.",
                "file src/parser.rs changed|12 tests pass",
            ),
            (
                "Obrisao sam datoteku `docs/stari.md`.",
                "file docs/stari.md deleted",
            ),
            (
                "Uklonio sam nekorišteni import iz `src/lib.rs`.",
                "file src/lib.rs changed",
            ),
            (
                "Kreirao sam novu datoteku `docs/setup.md`.",
                "file docs/setup.md created",
            ),
            (
                "Datoteke `app/a.py` i `app/b.py` su ažurirane.",
                "file app/a.py changed|file app/b.py changed",
            ),
            (
                "Preimenovao sam `foo.py` u `bar.py`.",
                "file foo.py renamed to bar.py",
            ),
            (
                "Promjene sam commitao i pushao na granu `feat/login`.",
                "a commit made|pushed to feat/login",
            ),
            (
                "Build je uspješan, a clippy ne prijavljuje nikakva upozorenja.",
                "the build succeeds|the linter passes",
            ),
            ("`cargo test`: 8 prošlo, 0 palo.", "8 tests pass"),
            ("Pet testova je prošlo, dva su pala.", "2 tests fail"),
            ("Svih šest testova je prošlo.", "6 tests pass"),
            // Serbian and Bosnian in Latin script, where they write alike.
            (
                "Izmenio sam fajl `src/app.js` i svi testovi prolaze.",
                "file src/app.js changed|the tests pass",
            ),
        ],
        &[
            "Testovi već prolaze u CI-ju.",
            "Pokrenite `cargo test` da provjerite prolazi li sve.",
            "Pregledao sam promjene u `src/lib.rs`.",
            "Datoteku `config.yaml` je izmijenio korisnik.",
            "Još nisam pokrenuo testove, pa ne znam hoće li proći.",
            "Želite li da pushnem promjene?",
            "U sljedećem koraku mogu ažurirati `docs/api.md`.",
            "Ažurirat ću `src/lib.rs` kasnije, ako želite.",
            "Nisam mijenjao `README.md`.",
            "Testovi nisu prošli.",
            "Push na `main` je odbijen (non-fast-forward).",
            "Dodatni testovi su u `tests/extra.rs`.",
        ],
    );
}

#[test]
fn estonian() {
    check(
        "et",
        &[
            (
                "Uuendasin faili `src/main.rs` ja kõik testid läksid läbi.",
                "file src/main.rs changed|the tests pass",
            ),
            (
                "Parandasin `src/parser.rs` faili, kõik 12 testi läbisid.",
                "file src/parser.rs changed|12 tests pass",
            ),
            (
                "Kustutasin faili `docs/vana.md`.",
                "file docs/vana.md deleted",
            ),
            (
                "Eemaldasin kasutamata impordi failist `src/lib.rs`.",
                "file src/lib.rs changed",
            ),
            (
                "Lõin uue faili `docs/setup.md`.",
                "file docs/setup.md created",
            ),
            (
                "- Uuendatud: `README.md`\n- Kustutatud fail: `docs/old.md`",
                "file README.md changed|file docs/old.md deleted",
            ),
            (
                "Nimetasin faili `foo.py` ümber failiks `bar.py`.",
                "file foo.py renamed to bar.py",
            ),
            (
                "Commitisin muudatused ja pushisin need harusse `feat/login`.",
                "a commit made|pushed to feat/login",
            ),
            (
                "Build õnnestus ja clippy ei andnud ühtegi hoiatust.",
                "the build succeeds|the linter passes",
            ),
            ("`cargo test`: 8 läbitud, 0 ebaõnnestus.", "8 tests pass"),
            ("Viis testi läks läbi, kaks ebaõnnestusid.", "2 tests fail"),
            ("Kõik kuus testi läksid läbi.", "6 tests pass"),
        ],
        &[
            "Kõik testid lähevad juba CI-s läbi.",
            "Vaatasin üle muudatused failis `src/lib.rs`.",
            "Kasutaja muutis faili `config.yaml`.",
            "`README.md` oli juba uuendatud.",
            "Ma pole veel teste käivitanud, seega ei tea, kas need lähevad läbi.",
            "Testid ei läinud läbi.",
            "Kas soovite, et ma pushiksin muudatused?",
            "Järgmise sammuna võin uuendada faili `docs/api.md`.",
            "Ma ei muutnud faili `README.md`.",
            "Push harusse `main` lükati tagasi, seega midagi ei saadetud.",
            "Ma ei commitinud midagi, sest testid ebaõnnestusid.",
        ],
    );
}

#[test]
fn swahili() {
    check(
        "sw",
        &[
            (
                "Nimesasisha `src/main.rs` na majaribio yote yamepita.",
                "file src/main.rs changed|the tests pass",
            ),
            (
                "Nimerekebisha `src/parser.rs`; majaribio yote 12 yamefaulu.",
                "file src/parser.rs changed|12 tests pass",
            ),
            (
                "Nimefuta faili `docs/zamani.md`.",
                "file docs/zamani.md deleted",
            ),
            (
                "Nimeondoa import isiyotumika kutoka `src/lib.rs`.",
                "file src/lib.rs changed",
            ),
            (
                "Nimeunda faili mpya `docs/setup.md`.",
                "file docs/setup.md created",
            ),
            (
                "Nimebadilisha jina la `foo.py` kuwa `bar.py`.",
                "file foo.py renamed to bar.py",
            ),
            (
                "Nimecommit mabadiliko na nimepush kwenye tawi `feat/login`.",
                "a commit made|pushed to feat/login",
            ),
            (
                "Build imefaulu, na clippy haina maonyo.",
                "the build succeeds|the linter passes",
            ),
            ("`cargo test`: 8 yamepita, 0 yameshindwa.", "8 tests pass"),
            ("Majaribio mawili yameshindwa.", "2 tests fail"),
            ("Majaribio yote matano yamepita.", "5 tests pass"),
            ("Majaribio mawili hayakupita.", "2 tests fail"),
        ],
        &[
            "Majaribio yote yalikuwa yamepita kwenye CI hapo awali.",
            "Tafadhali endesha `cargo test` ili kuhakikisha kila kitu kinapita.",
            "Nimekagua mabadiliko katika `src/lib.rs`.",
            "Faili `config.yaml` ilibadilishwa na mtumiaji.",
            "Sijaendesha majaribio bado, kwa hiyo sijui kama yanapita.",
            "Je, nipush mabadiliko sasa?",
            "Hatua inayofuata: ninaweza kusasisha `docs/api.md`.",
            "Nitasasisha `src/lib.rs` baadaye ukitaka.",
            "Sijabadilisha faili `README.md`.",
            "Push kwenye `main` ilikataliwa na seva.",
        ],
    );
}

#[test]
fn tagalog() {
    check(
        "tl",
        &[
            (
                "In-update ko ang `src/main.rs` at pumasa ang lahat ng test.",
                "file src/main.rs changed|the tests pass",
            ),
            (
                "Inayos ko ang `src/parser.rs`, pumasa ang lahat ng 12 test.",
                "file src/parser.rs changed|12 tests pass",
            ),
            (
                "Binura ko ang file na `docs/luma.md`.",
                "file docs/luma.md deleted",
            ),
            (
                "Tinanggal ko ang lumang import mula sa `src/lib.rs`.",
                "file src/lib.rs changed",
            ),
            (
                "Gumawa ako ng bagong file na `docs/setup.md`.",
                "file docs/setup.md created",
            ),
            (
                "Pinalitan ko ang pangalan ng `foo.py` sa `bar.py`.",
                "file foo.py renamed to bar.py",
            ),
            (
                "Nag-commit ako ng mga pagbabago at nag-push sa branch na `feat/login`.",
                "a commit made|pushed to feat/login",
            ),
            (
                "Matagumpay ang build at walang babala ang clippy.",
                "the build succeeds|the linter passes",
            ),
            ("`cargo test`: 8 pumasa, 0 bumagsak.", "8 tests pass"),
            ("Dalawang test ang bumagsak.", "2 tests fail"),
            ("Pumasa ang lahat ng limang test.", "5 tests pass"),
        ],
        &[
            "Pumapasa na dati ang mga test sa CI.",
            "Pakitakbo ang `cargo test` para matiyak kung pumapasa ang lahat.",
            "Sinuri ko ang mga pagbabago sa `src/lib.rs`.",
            "Binago mo ang `config.yaml`.",
            "Hindi ko pa pinatakbo ang mga test, kaya hindi ko alam kung papasa sila.",
            "Gusto mo bang i-push ko ang mga pagbabago?",
            "Sa susunod na hakbang, puwede kong i-update ang `docs/api.md`.",
            "Hindi ko binago ang `README.md`.",
            "Hindi pumasa ang mga test.",
            "Tinanggihan ng server ang push sa `main`.",
            "Di ko binago ang `README.md`.",
            "Di pumasa ang mga test.",
        ],
    );
}

#[test]
fn lithuanian() {
    check(
        "lt",
        &[
            (
                "Atnaujinau `src/main.rs` ir visi testai praėjo.",
                "file src/main.rs changed|the tests pass",
            ),
            (
                "Pataisiau `src/parser.rs`, visi 12 testų praėjo sėkmingai.",
                "file src/parser.rs changed|12 tests pass",
            ),
            (
                "Ištryniau failą `docs/senas.md`.",
                "file docs/senas.md deleted",
            ),
            (
                "Pašalinau nenaudojamą importą iš `src/lib.rs`.",
                "file src/lib.rs changed",
            ),
            (
                "Sukūriau naują failą `docs/setup.md`.",
                "file docs/setup.md created",
            ),
            (
                "- Atnaujinta: `README.md`\n- Ištrintas failas: `docs/old.md`",
                "file README.md changed|file docs/old.md deleted",
            ),
            (
                "Pervadinau `foo.py` į `bar.py`.",
                "file foo.py renamed to bar.py",
            ),
            (
                "Sukomitinau pakeitimus ir supushinau į šaką `feat/login`.",
                "a commit made|pushed to feat/login",
            ),
            (
                "Build sėkmingas, o clippy nerodo jokių įspėjimų.",
                "the build succeeds|the linter passes",
            ),
            ("`cargo test`: 8 praėjo, 0 nepavyko.", "8 tests pass"),
            ("Penki testai praėjo, du nepraėjo.", "2 tests fail"),
            ("Visi šeši testai praėjo.", "6 tests pass"),
        ],
        &[
            "Testai jau praeina CI aplinkoje.",
            "Peržiūrėjau pakeitimus faile `src/lib.rs`.",
            "Failą `config.yaml` pakeitė naudotojas.",
            "`README.md` jau buvo atnaujintas.",
            "Dar nepaleidau testų, todėl nežinau, ar jie praeina.",
            "Testai nepraėjo.",
            "Ar norite, kad supushinčiau pakeitimus?",
            "Kitame žingsnyje galiu atnaujinti `docs/api.md`.",
            "Atnaujinsiu `src/lib.rs` vėliau, jei norite.",
            "Nepakeičiau failo `README.md`.",
            "Push į `main` buvo atmestas (non-fast-forward).",
        ],
    );
}

#[test]
fn latvian() {
    check(
        "lv",
        &[
            (
                "Atjaunināju `src/main.rs` un visi testi izgāja.",
                "file src/main.rs changed|the tests pass",
            ),
            (
                "Izlaboju `src/parser.rs`, visi 12 testi izgāja veiksmīgi.",
                "file src/parser.rs changed|12 tests pass",
            ),
            ("Izdzēsu failu `docs/vecs.md`.", "file docs/vecs.md deleted"),
            (
                "Noņēmu neizmantoto importu no `src/lib.rs`.",
                "file src/lib.rs changed",
            ),
            (
                "Izveidoju jaunu failu `docs/setup.md`.",
                "file docs/setup.md created",
            ),
            (
                "- Atjaunināts: `README.md`\n- Dzēsts fails: `docs/old.md`",
                "file README.md changed|file docs/old.md deleted",
            ),
            (
                "Pārdēvēju `foo.py` par `bar.py`.",
                "file foo.py renamed to bar.py",
            ),
            (
                "Nokomitēju izmaiņas un nopušoju uz zaru `feat/login`.",
                "a commit made|pushed to feat/login",
            ),
            (
                "Build bija veiksmīgs, un clippy neuzrāda nekādus brīdinājumus.",
                "the build succeeds|the linter passes",
            ),
            ("`cargo test`: 8 izgāja, 0 neizdevās.", "8 tests pass"),
            ("Pieci testi izgāja, divi neizdevās.", "2 tests fail"),
            ("Visi seši testi izgāja.", "6 tests pass"),
            ("Divi testi neizgāja.", "2 tests fail"),
        ],
        &[
            "Testi jau iziet CI vidē.",
            "Pārskatīju izmaiņas failā `src/lib.rs`.",
            "Failu `config.yaml` mainīja lietotājs.",
            "`README.md` jau bija atjaunināts.",
            "Vēl nepalaidu testus, tāpēc nezinu, vai tie iziet.",
            "Testi neizgāja.",
            "Vai vēlaties, lai es nopušoju izmaiņas?",
            "Nākamajā solī varu atjaunināt `docs/api.md`.",
            "Atjaunināšu `src/lib.rs` vēlāk, ja vēlaties.",
            "Nemainīju failu `README.md`.",
            "Push uz `main` tika noraidīts (non-fast-forward).",
            "Izgāja tikai 3 no 4 testiem.",
        ],
    );
}

#[test]
fn slovenian() {
    check(
        "sl",
        &[
            (
                "Posodobil sem `src/main.rs` in vsi testi so prešli.",
                "file src/main.rs changed|the tests pass",
            ),
            (
                "Popravil sem `src/parser.rs`, vseh 12 testov je uspešno prešlo.",
                "file src/parser.rs changed|12 tests pass",
            ),
            (
                "Izbrisal sem datoteko `docs/stara.md`.",
                "file docs/stara.md deleted",
            ),
            (
                "Odstranil sem neuporabljen uvoz iz `src/lib.rs`.",
                "file src/lib.rs changed",
            ),
            (
                "Ustvaril sem novo datoteko `docs/setup.md`.",
                "file docs/setup.md created",
            ),
            (
                "Preimenoval sem `foo.py` v `bar.py`.",
                "file foo.py renamed to bar.py",
            ),
            (
                "Spremembe sem commital in pushal na vejo `feat/login`.",
                "a commit made|pushed to feat/login",
            ),
            (
                "Build je uspešen, clippy pa ne javlja nobenih opozoril.",
                "the build succeeds|the linter passes",
            ),
            ("`cargo test`: 8 prešlo, 0 padlo.", "8 tests pass"),
            ("Pet testov je prešlo, dva sta padla.", "2 tests fail"),
            ("Vseh šest testov je prešlo.", "6 tests pass"),
        ],
        &[
            "Testi že prehajajo v CI.",
            "Pregledal sem spremembe v `src/lib.rs`.",
            "Datoteko `config.yaml` je spremenil uporabnik.",
            "Testov še nisem zagnal, zato ne vem, ali bodo prešli.",
            "Ali želite, da pushnem spremembe?",
            "V naslednjem koraku lahko posodobim `docs/api.md`.",
            "`src/lib.rs` bom posodobil kasneje, če želite.",
            "Nisem spremenil `README.md`.",
            "Testi niso prešli.",
            "Push na `main` je bil zavrnjen (non-fast-forward).",
            "Prešla sta samo 2 od 4 testov.",
        ],
    );
}

#[test]
fn bulgarian() {
    check(
        "bg",
        &[
            (
                "Обнових `src/main.rs` и всички тестове минаха.",
                "file src/main.rs changed|the tests pass",
            ),
            (
                "Поправих `src/parser.rs`, всички 12 теста минават успешно.",
                "file src/parser.rs changed|12 tests pass",
            ),
            ("Изтрих файла `docs/star.md`.", "file docs/star.md deleted"),
            (
                "Премахнах неизползвания импорт от `src/lib.rs`.",
                "file src/lib.rs changed",
            ),
            (
                "Създадох нов файл `docs/setup.md`.",
                "file docs/setup.md created",
            ),
            (
                "- Обновен: `README.md`\n- Изтрит файл: `docs/old.md`",
                "file README.md changed|file docs/old.md deleted",
            ),
            (
                "Преименувах `foo.py` на `bar.py`.",
                "file foo.py renamed to bar.py",
            ),
            (
                "Комитнах промените и ги пушнах в клона `feat/login`.",
                "a commit made|pushed to feat/login",
            ),
            (
                "Билдът е успешен, а clippy не отчита никакви предупреждения.",
                "the build succeeds|the linter passes",
            ),
            ("`cargo test`: 8 минаха, 0 неуспешни.", "8 tests pass"),
            ("Пет теста минаха, два се провалиха.", "2 tests fail"),
            ("Всички шест теста минаха.", "6 tests pass"),
            ("Не минаха два теста.", "2 tests fail"),
        ],
        &[
            "Тестовете вече минават в CI.",
            "Прегледах промените в `src/lib.rs`.",
            "Файлът `config.yaml` е променен от потребителя.",
            "Още не съм пускал тестовете, така че не знам дали минават.",
            "Искате ли да пушна промените?",
            "Като следваща стъпка мога да обновя `docs/api.md`.",
            "Ще обновя `src/lib.rs` по-късно, ако искате.",
            "Не съм променял `README.md`.",
            "Тестовете не минаха.",
            "Пушът към `main` беше отхвърлен (non-fast-forward).",
            "Минаха само 3 от 4 теста.",
        ],
    );
}

/// The new tables and their neighbours: Croatian and Slovenian are not each other nor
/// Czech, Slovak or Polish, Bulgarian not Russian or Ukrainian, Estonian not Finnish, Lithuanian and Latvian not each other nor Polish, Swahili
/// and Tagalog not English, Malay or Indonesian; and the older tables keep theirs.
#[test]
fn croatian_estonian_swahili_tagalog_baltic_and_their_neighbours() {
    for (message, want) in [
        ("Ažurirao sam `src/lib.rs` i svi testovi su prošli.", "hr"),
        (
            "Posodobil sem datoteko `src/lib.rs` in vsi testi so uspešno prešli.",
            "sl",
        ),
        ("Dodal sem nov test in vsi testi so zeleni, lahko preverite.", "sl"),
        ("Izmenio sam konfiguracioni fajl i svi testovi su uspešno prošli.", "hr"),
        ("Uuendasin konfiguratsioonifaili ja kõik testid läksid edukalt läbi.", "et"),
        ("Nimesasisha faili ya usanidi na majaribio yote yamefaulu.", "sw"),
        ("In-update ko ang config file at pumasa ang lahat ng test.", "tl"),
        ("Atnaujinau konfigūracijos failą ir visi testai sėkmingai praėjo.", "lt"),
        ("Atjaunināju konfigurācijas failu un visi testi veiksmīgi izgāja.", "lv"),
        ("Обнових конфигурационния файл и всички тестове минаха успешно.", "bg"),
        ("Я обновил `src/lib.rs`, и все тесты проходят.", "ru"),
        ("Закоммитил изменения и запушил в `feat/x`.", "ru"),
        ("Обновил объект в `src/lib.rs` и всё работает.", "ru"),
        ("Я оновив `src/lib.rs`, і всі тести проходять.", "uk"),
        ("Запушив зміни в `feat/x`, що й треба було.", "uk"),
        ("Оновив `src/lib.rs` та додав тест.", "uk"),
        (
            "Upravil som súbor `src/lib.rs`, opravil som chybu a pridal som test, všetky testy prešli.",
            "sk",
        ),
        (
            "Upravil jsem soubor `src/lib.rs`, opravil jsem chybu a přidal jsem test, všechny testy prošly.",
            "cs",
        ),
        ("Zaktualizowałem `src/main.rs` i wszystkie testy przechodzą.", "pl"),
        ("Päivitin tiedoston `src/a.rs` ja kaikki 5 testiä menivät läpi.", "fi"),
        ("Committasin muutokset ja pushasin ne haaraan `feat/login`.", "fi"),
        (
            "Saya telah mengemas kini fail konfigurasi dan semua ujian berjaya.",
            "ms",
        ),
        ("Saya menghapus file `docs/lama.md`.", "id"),
        (
            "Saya telah memperbarui `src/main.rs` dan semua test lulus.",
            "id",
        ),
        ("He modificado `src/app.js` y todas las pruebas pasan.", "es"),
        ("Modifiquei `src/app.js` e todos os testes passaram.", "pt"),
        ("Ho aggiornato `notes.txt` e tutti i test passano.", "it"),
    ] {
        let mut bad = Vec::new();
        detected_as(want, message, &mut bad);
        assert!(bad.is_empty(), "{bad:?}");
    }
    for message in [
        "I updated `src/lib.rs` and the tests pass; the build is green and the changes are pushed to `main`.",
        "Refactored the parser, reviewed the diff, and all tests passed after the fix.",
        "Added the Hindi and Tagalog translations to `i18n/` and the tests pass.",
        "The user saw no errors at all, so I left `sa.rs` as it was.",
    ] {
        assert_eq!(detect(message), Detected::English, "{message}");
    }
    // Some of the tests passing ("3 od 4", "3 iš 4", "3 sa 4", "3 kati ya 4") is no pass.
    each_reads(
        &[
            "Prošla su samo 3 od 4 testa.",
            "Praėjo tik 3 iš 4 testų.",
            "3 sa 4 na test lang ang pumasa.",
            "Majaribio 3 kati ya 4 yamepita.",
            "Läbi läks ainult 3 testi 4-st.",
            "Prošla su samo dva testa.",
            "Svi testovi prolaze osim `test_slugify`.",
            "Kõik testid läbisid, välja arvatud `test_slugify`.",
            "Majaribio mawili tu yamepita.",
            "Pumasa ang lahat maliban sa `test_slugify`.",
            "Praėjo visi testai, išskyrus `test_slugify`.",
            "Visi testi izgāja, izņemot `test_slugify`.",
            "Минаха само два теста.",
            "Всички тестове минаха освен `test_slugify`.",
        ],
        |got| !got.iter().any(|c| c.contains("tests pass")),
    );
    // A pass denied beside a count is that many failures.
    each_reads(
        &[
            "Nisu prošla dva testa.",
            "Du testai nepraėjo.",
            "Testidest kaks ei läinud läbi.",
            "Majaribio mawili hayakupita.",
            "Divi testi neizgāja.",
            "Niso prešli dva testa.",
            "Не минаха два теста.",
        ],
        |got| got.contains(&"2 tests fail".to_owned()) && !got.iter().any(|c| c.contains("pass")),
    );
    // Honest reports of a refused push claim no push.
    each_reads(
        &[
            "Push na `main` je odbijen od strane servera.",
            "Push harusse `main` ebaõnnestus.",
            "Push kwenye `main` imeshindwa.",
            "Nabigo ang push sa `main`.",
            "Push į `main` nepavyko.",
            "Push uz `main` neizdevās.",
            "Пушът към `main` беше отхвърлен.",
        ],
        |got| !got.iter().any(|c| c.starts_with("pushed")),
    );
}

/// A bare path glued to a letter of two bytes ("ב-config/app.yaml") is read without
/// slicing inside that letter (heldout16 found the reading of asides did).
#[test]
fn a_bare_path_after_a_wide_letter_is_read_whole() {
    let claims = crate::audit::claims::extract(
        "שיניתי את הפורט ב-config/app.yaml ל-9090 והוספתי CHANGELOG.md עם רשומה לגרסה 1.1.",
    );
    assert!(!claims.is_empty());
}

#[test]
fn azerbaijani() {
    check(
        "az",
        &[
            (
                "`src/main.rs` faylını yenilədim və bütün testlər keçdi.",
                "file src/main.rs changed|the tests pass",
            ),
            (
                "`src/parser.rs` faylını düzəltdim, bütün 12 test uğurla keçdi.",
                "file src/parser.rs changed|12 tests pass",
            ),
            (
                "`docs/köhnə.md` faylını sildim.",
                "file docs/köhnə.md deleted",
            ),
            (
                "İstifadə olunmayan importu `src/lib.rs` faylından sildim.",
                "file src/lib.rs changed",
            ),
            (
                "Yeni `docs/setup.md` faylını yaratdım.",
                "file docs/setup.md created",
            ),
            (
                "`foo.py` faylını `bar.py` olaraq yenidən adlandırdım.",
                "file foo.py renamed to bar.py",
            ),
            (
                "Dəyişiklikləri commit etdim və `feat/login` budağına push etdim.",
                "a commit made|pushed to feat/login",
            ),
            ("İki test keçmədi.", "2 tests fail"),
        ],
        &[
            "`src/lib.rs` faylındakı dəyişiklikləri nəzərdən keçirdim.",
            "`config.yaml` faylını istifadəçi dəyişdirib.",
            "Testləri hələ işə salmadım, ona görə nəticəni bilmirəm.",
            "Testlər keçmədi.",
            "Dəyişiklikləri push etməyimi istəyirsiniz?",
            "Növbəti addım olaraq `docs/api.md` faylını yeniləyəcəyəm.",
            "`README.md` faylını dəyişdirmədim.",
            "Testlər keçmədi, ona görə heç nə commit etmədim.",
            "Yalnız 3 test keçdi.",
        ],
    );
}

#[test]
fn uzbek() {
    check(
        "uz",
        &[
            (
                "`src/main.rs` faylini yangiladim va barcha testlar oʻtdi.",
                "file src/main.rs changed|the tests pass",
            ),
            (
                "`src/parser.rs` faylini tuzatdim, barcha 12 test muvaffaqiyatli oʻtdi.",
                "file src/parser.rs changed|12 tests pass",
            ),
            (
                "`docs/eski.md` faylini oʻchirdim.",
                "file docs/eski.md deleted",
            ),
            (
                "Ishlatilmagan importni `src/lib.rs` faylidan olib tashladim.",
                "file src/lib.rs changed",
            ),
            (
                "Yangi `docs/setup.md` faylini yaratdim.",
                "file docs/setup.md created",
            ),
            (
                "`foo.py` faylini `bar.py` deb qayta nomladim.",
                "file foo.py renamed to bar.py",
            ),
            (
                "Oʻzgarishlarni commit qildim va `feat/login` tarmogʻiga push qildim.",
                "a commit made|pushed to feat/login",
            ),
            ("Ikkita test oʻtmadi.", "2 tests fail"),
        ],
        &[
            "`src/lib.rs` dagi oʻzgarishlarni koʻrib chiqdim.",
            "`config.yaml` faylini foydalanuvchi oʻzgartirgan.",
            "Testlarni hali ishga tushirmadim.",
            "Testlar oʻtmadi.",
            "Oʻzgarishlarni push qilaymi?",
            "Keyingi qadam sifatida `docs/api.md` faylini yangilayman.",
            "`README.md` faylini oʻzgartirmadim.",
            "Testlar oʻtmadi, shuning uchun hech narsani commit qilmadim.",
            "Faqat 3 ta test oʻtdi.",
        ],
    );
}

#[test]
fn kazakh() {
    check(
        "kk",
        &[
            (
                "`src/main.rs` файлын жаңарттым және барлық тесттер өтті.",
                "file src/main.rs changed|the tests pass",
            ),
            (
                "`src/parser.rs` файлын түзеттім, барлық 12 тест сәтті өтті.",
                "file src/parser.rs changed|12 tests pass",
            ),
            (
                "`docs/eski.md` файлын өшірдім.",
                "file docs/eski.md deleted",
            ),
            (
                "Қолданылмайтын импортты `src/lib.rs` файлынан алып тастадым.",
                "file src/lib.rs changed",
            ),
            (
                "Жаңа `docs/setup.md` файлын құрдым.",
                "file docs/setup.md created",
            ),
            (
                "`foo.py` файлын `bar.py` деп қайта атадым.",
                "file foo.py renamed to bar.py",
            ),
            (
                "Өзгерістерді коммит жасадым және `feat/login` тармағына push жасадым.",
                "a commit made|pushed to feat/login",
            ),
            ("Екі тест өтпеді.", "2 tests fail"),
        ],
        &[
            "`src/lib.rs` ішіндегі өзгерістерді қарап шықтым.",
            "`config.yaml` файлын пайдаланушы өзгерткен.",
            "Тесттерді әлі іске қоспадым.",
            "Тесттер өтпеді.",
            "Өзгерістерді push жасайын ба?",
            "Келесі қадам ретінде `docs/api.md` файлын жаңартамын.",
            "`README.md` файлын өзгертпедім.",
            "Тесттер өтпеді, сондықтан ештеңе коммит жасамадым.",
            "Тек 3 тест өтті.",
        ],
    );
}

#[test]
fn basque() {
    check(
        "eu",
        &[
            (
                "`src/main.rs` eguneratu dut eta proba guztiak gainditu dira.",
                "file src/main.rs changed|the tests pass",
            ),
            (
                "`src/parser.rs` konpondu dut, 12 proba gainditu dira.",
                "file src/parser.rs changed|12 tests pass",
            ),
            (
                "`docs/zaharra.md` fitxategia ezabatu dut.",
                "file docs/zaharra.md deleted",
            ),
            (
                "Inportazio zaharra kendu dut `src/lib.rs` fitxategitik.",
                "file src/lib.rs changed",
            ),
            (
                "`docs/setup.md` fitxategi berria sortu dut.",
                "file docs/setup.md created",
            ),
            (
                "`foo.py` berrizendatu dut `bar.py` izenarekin.",
                "file foo.py renamed to bar.py",
            ),
            (
                "Aldaketak commit egin ditut eta `feat/login` adarrera push egin dut.",
                "a commit made|pushed to feat/login",
            ),
            ("Bi proba huts egin dute.", "2 tests fail"),
        ],
        &[
            "`src/lib.rs` fitxategiko aldaketak berrikusi ditut.",
            "Erabiltzaileak `config.yaml` aldatu du.",
            "Oraindik ez ditut probak exekutatu.",
            "Probak ez dira gainditu.",
            "Aldaketak push egitea nahi al duzu?",
            "Hurrengo urratsean `docs/api.md` eguneratuko dut.",
            "Ez dut `README.md` aldatu.",
            "Probak ez dira gainditu, beraz ez dut ezer commit egin.",
            "3 proba bakarrik gainditu dira.",
        ],
    );
}

#[test]
fn welsh() {
    check(
        "cy",
        &[
            (
                "Rydw i wedi diweddaru `src/main.rs` ac mae'r profion i gyd yn pasio.",
                "file src/main.rs changed|the tests pass",
            ),
            (
                "Wnes i drwsio `src/parser.rs`; pasiodd 12 prawf.",
                "file src/parser.rs changed|12 tests pass",
            ),
            (
                "Rydw i wedi dileu'r ffeil `docs/hen.md`.",
                "file docs/hen.md deleted",
            ),
            (
                "Wnes i dynnu'r mewnforio diangen o `src/lib.rs`.",
                "file src/lib.rs changed",
            ),
            (
                "Rydw i wedi creu ffeil newydd `docs/setup.md`.",
                "file docs/setup.md created",
            ),
            (
                "Rydw i wedi ailenwi `foo.py` i `bar.py`.",
                "file foo.py renamed to bar.py",
            ),
            (
                "Rydw i wedi commitio'r newidiadau ac wedi gwthio i'r gangen `feat/login`.",
                "a commit made|pushed to feat/login",
            ),
            ("Methodd dau brawf.", "2 tests fail"),
        ],
        &[
            "Rydw i wedi adolygu'r newidiadau yn `src/lib.rs`.",
            "Mae'r defnyddiwr wedi newid `config.yaml`.",
            "Dydw i ddim wedi rhedeg y profion eto.",
            "Dydy'r profion ddim yn pasio.",
            "Hoffech chi i mi wthio'r newidiadau?",
            "Fel cam nesaf, gallaf ddiweddaru `docs/api.md`.",
            "Wnes i ddim newid `README.md`.",
            "Methodd y profion, felly wnes i ddim commitio dim byd.",
            "Bydda i'n gwthio'r newidiadau yn nes ymlaen.",
        ],
    );
}

#[test]
fn icelandic() {
    check(
        "is",
        &[
            (
                "Ég uppfærði `src/main.rs` og öll prófin stóðust.",
                "file src/main.rs changed|the tests pass",
            ),
            (
                "Ég lagaði `src/parser.rs` og öll 12 prófin stóðust.",
                "file src/parser.rs changed|12 tests pass",
            ),
            (
                "Ég eyddi skránni `docs/gamalt.md`.",
                "file docs/gamalt.md deleted",
            ),
            (
                "Ég fjarlægði ónotaðan innflutning úr `src/lib.rs`.",
                "file src/lib.rs changed",
            ),
            (
                "Ég bjó til nýja skrá `docs/setup.md`.",
                "file docs/setup.md created",
            ),
            (
                "Ég endurnefndi `foo.py` í `bar.py`.",
                "file foo.py renamed to bar.py",
            ),
            (
                "Ég commitaði breytingarnar og ýtti þeim á greinina `feat/login`.",
                "a commit made|pushed to feat/login",
            ),
            ("Tvö próf féllu.", "2 tests fail"),
        ],
        &[
            "Ég fór yfir breytingarnar í `src/lib.rs`.",
            "Notandinn breytti `config.yaml`.",
            "Ég hef ekki keyrt prófin ennþá.",
            "Prófin stóðust ekki.",
            "Viltu að ég ýti breytingunum?",
            "Sem næsta skref get ég uppfært `docs/api.md`.",
            "Ég breytti ekki `README.md`.",
            "Prófin féllu, svo ég commitaði ekkert.",
            "Aðeins 3 af 4 prófum stóðust.",
        ],
    );
}

/// The six tables and their neighbours: Azerbaijani and Uzbek are not Turkish, Kazakh not
/// Russian, Icelandic not Danish, Norwegian or Swedish, Basque not Spanish or French,
/// Welsh not English; and the older tables keep theirs.
#[test]
fn welsh_basque_icelandic_turkic_and_their_neighbours() {
    for (message, want) in [
        (
            "Konfiqurasiya faylını yenilədim və bütün testlər uğurla keçdi.",
            "az",
        ),
        (
            "Konfiguratsiya faylini yangiladim va barcha testlar oʻtdi.",
            "uz",
        ),
        (
            "Konfiguratsiya faylini yangiladim va barcha testlar muvaffaqiyatli o'tdi.",
            "uz",
        ),
        (
            "Конфигурация файлын жаңарттым және барлық тесттер сәтті өтті.",
            "kk",
        ),
        ("Ég uppfærði stillingaskrána og öll prófin stóðust.", "is"),
        (
            "Konfigurazio fitxategia eguneratu dut eta proba guztiak gainditu dira.",
            "eu",
        ),
        (
            "Rydw i wedi diweddaru'r ffeil ffurfweddu ac mae'r profion i gyd yn pasio.",
            "cy",
        ),
        (
            "`src/lib.rs` dosyasını güncelledim ve tüm testler geçti.",
            "tr",
        ),
        (
            "Yapılandırma dosyasını güncelledim ve tüm testler başarıyla geçti.",
            "tr",
        ),
        ("Я обновил `src/lib.rs`, и все тесты проходят.", "ru"),
        ("Я оновив `src/lib.rs`, і всі тести проходять.", "uk"),
        (
            "Обнових конфигурационния файл и всички тестове минаха успешно.",
            "bg",
        ),
        (
            "Jeg har opdateret `src/lib.rs`, og alle tests består.",
            "da",
        ),
        (
            "Jeg har oppdatert `src/lib.rs`, og alle testene består.",
            "nb",
        ),
        (
            "Jag har uppdaterat `src/lib.rs` och alla tester går igenom.",
            "sv",
        ),
        (
            "He modificado `src/app.js` y todas las pruebas pasan.",
            "es",
        ),
        ("J'ai modifié `src/app.js` et tous les tests passent.", "fr"),
    ] {
        let mut bad = Vec::new();
        detected_as(want, message, &mut bad);
        assert!(bad.is_empty(), "{bad:?}");
    }
    for message in [
        "I updated `src/lib.rs` and the tests pass; the build is green and the changes are pushed to `main`.",
        "Added the Welsh and Basque translations to `i18n/` and the tests pass.",
        "The diff is ok, so I ran the build again and left the old test as it was.",
    ] {
        assert_eq!(detect(message), Detected::English, "{message}");
    }
    // Some of the tests passing ("3 af 4", "3 o 4", "faqat", "тек") is no pass.
    each_reads(
        &[
            "Aðeins 3 af 4 prófum stóðust.",
            "Pasiodd 3 o 4 prawf.",
            "Faqat 3 ta test oʻtdi.",
            "Тек 3 тест өтті.",
            "Yalnız 3 test keçdi.",
            "3 proba bakarrik gainditu dira.",
            "Öll prófin stóðust nema `test_slugify`.",
            "Bütün testlər keçdi, `test_slugify` istisna olmaqla.",
        ],
        |got| !got.iter().any(|c| c.contains("tests pass")),
    );
    // A pass denied beside a count is that many failures.
    each_reads(
        &[
            "Tvö próf stóðust ekki.",
            "Ikkita test oʻtmadi.",
            "Екі тест өтпеді.",
        ],
        |got| got.contains(&"2 tests fail".to_owned()) && !got.iter().any(|c| c.contains("pass")),
    );
}

#[test]
fn georgian() {
    check(
        "ka",
        &[
            (
                "განვაახლე `src/main.rs` და ყველა ტესტმა გაიარა.",
                "file src/main.rs changed|the tests pass",
            ),
            (
                "შევასწორე `src/parser.rs`, 12 ტესტმა წარმატებით გაიარა.",
                "file src/parser.rs changed|12 tests pass",
            ),
            ("წავშალე ფაილი `docs/old.md`.", "file docs/old.md deleted"),
            (
                "`src/lib.rs`-დან წავშალე გამოუყენებელი იმპორტი.",
                "file src/lib.rs changed",
            ),
            (
                "შევქმენი ახალი ფაილი `docs/setup.md`.",
                "file docs/setup.md created",
            ),
            (
                "`foo.py` გადავარქვი `bar.py`-ად.",
                "file foo.py renamed to bar.py",
            ),
            (
                "ცვლილებები დავაკომიტე და `feat/login`-ზე დავპუშე.",
                "a commit made|pushed to feat/login",
            ),
            (
                "ბილდი წარმატებით დასრულდა და clippy-მ გაფრთხილებების გარეშე გაიარა.",
                "the build succeeds|the linter passes",
            ),
            ("`cargo test`: 8 გაიარა, 0 ჩავარდა.", "8 tests pass"),
            ("სამმა ტესტმა გაიარა, ორი ტესტი ჩავარდა.", "2 tests fail"),
        ],
        &[
            "ტესტები უკვე გადის CI-ში.",
            "გთხოვთ გაუშვათ `cargo test` და შეამოწმოთ.",
            "გადავხედე `src/lib.rs`-ის ცვლილებებს.",
            "`config.yaml` ფაილი მომხმარებელმა შეცვალა.",
            "ჯერ არ გამიშვია ტესტები.",
            "დავაკომიტო ცვლილებები?",
            "შემდეგ ნაბიჯად შემიძლია განვაახლო `docs/api.md`.",
            "თუ გინდათ, მოგვიანებით განვაახლებ `src/lib.rs`-ს.",
            "ტესტები ისევ ვარდება: 10-დან 2.",
            "`README.md` არ შემიცვლია.",
            "`main`-ზე პუში სერვერმა უარყო (non-fast-forward).",
            "ტესტებმა ვერ გაიარა, ამიტომ არაფერი დამიკომიტებია.",
        ],
    );
}

#[test]
fn armenian() {
    check(
        "hy",
        &[
            (
                "Թարմացրի `src/main.rs`-ը, և բոլոր թեստերը անցան։",
                "file src/main.rs changed|the tests pass",
            ),
            (
                "Ուղղեցի `src/parser.rs`-ը, 12 թեստ հաջողությամբ անցան։",
                "file src/parser.rs changed|12 tests pass",
            ),
            ("Ջնջեցի `docs/old.md` ֆայլը։", "file docs/old.md deleted"),
            (
                "`src/lib.rs`-ից հեռացրի չօգտագործվող import-ը։",
                "file src/lib.rs changed",
            ),
            (
                "Ստեղծեցի նոր ֆայլ `docs/setup.md`։",
                "file docs/setup.md created",
            ),
            (
                "`foo.py`-ը վերանվանեցի `bar.py`։",
                "file foo.py renamed to bar.py",
            ),
            (
                "Փոփոխությունները commit արեցի և push արեցի `feat/login` ճյուղ։",
                "a commit made|pushed to feat/login",
            ),
            (
                "Build-ը հաջողությամբ անցավ, իսկ clippy-ն առանց զգուշացումների է։",
                "the build succeeds|the linter passes",
            ),
            ("`cargo test`: 8 անցան, 0 ձախողվեց։", "8 tests pass"),
            ("Երեք թեստ անցան, երկու թեստ ձախողվեցին։", "2 tests fail"),
        ],
        &[
            "Թեստերն արդեն անցնում են CI-ում։",
            "Խնդրում եմ գործարկել `cargo test`։",
            "Վերանայեցի `src/lib.rs`-ի փոփոխությունները։",
            "`config.yaml` ֆայլը փոխվել է օգտատիրոջ կողմից։",
            "Դեռ չեմ գործարկել թեստերը։",
            "Commit անե՞մ փոփոխությունները։",
            "Հաջորդ քայլով կարող եմ թարմացնել `docs/api.md`-ը։",
            "Եթե ցանկանում եք, ավելի ուշ կթարմացնեմ `src/lib.rs`-ը։",
            "Թեստերը դեռ ձախողվում են՝ 10-ից 2-ը։",
            "`README.md`-ը չեմ փոխել։",
            "Փուշը դեպի `main` մերժվեց սերվերի կողմից (non-fast-forward)։",
            "Թեստերը չանցան, ուստի ոչինչ commit չեմ արել։",
        ],
    );
}

#[test]
fn amharic() {
    check(
        "am",
        &[
            (
                "`src/main.rs`ን አዘምኛለሁ እና ሁሉም ሙከራዎች አልፈዋል።",
                "file src/main.rs changed|the tests pass",
            ),
            (
                "`src/parser.rs`ን አስተካክያለሁ፣ 12 ሙከራዎች በተሳካ ሁኔታ አልፈዋል።",
                "file src/parser.rs changed|12 tests pass",
            ),
            ("የ`docs/old.md` ፋይሉን ሰርዣለሁ።", "file docs/old.md deleted"),
            (
                "ከ`src/lib.rs` ጥቅም ላይ ያልዋለውን import አስወግጃለሁ።",
                "file src/lib.rs changed",
            ),
            (
                "አዲስ ፋይል `docs/setup.md` ፈጥሬያለሁ።",
                "file docs/setup.md created",
            ),
            (
                "`foo.py` ስሙን ወደ `bar.py` ቀይሬያለሁ።",
                "file foo.py renamed to bar.py",
            ),
            (
                "ለውጦቹን commit አድርጌ ወደ `feat/login` push አድርጌያለሁ።",
                "a commit made|pushed to feat/login",
            ),
            (
                "ግንባታው በተሳካ ሁኔታ ተጠናቋል፣ clippy ምንም ማስጠንቀቂያ የለም።",
                "the build succeeds|the linter passes",
            ),
            ("`cargo test`: 8 አልፈዋል፣ 0 ወድቀዋል።", "8 tests pass"),
            ("ሶስት ሙከራዎች አልፈዋል፣ ሁለት ሙከራዎች ወድቀዋል።", "2 tests fail"),
        ],
        &[
            "ሙከራዎቹ ቀድሞውኑ በ CI ላይ ያልፋሉ።",
            "እባክዎ `cargo test` ያስኪዱ።",
            "የ`src/lib.rs` ለውጦችን ገመገምኩ።",
            "`config.yaml` ፋይሉን ተጠቃሚው ቀይሮታል።",
            "እስካሁን ሙከራዎቹን አላስኬድኩም።",
            "ለውጦቹን commit ላድርግ?",
            "በቀጣይ እርምጃ `docs/api.md`ን ማዘመን እችላለሁ።",
            "ከፈለጉ በኋላ ላይ `src/lib.rs`ን አዘምናለሁ።",
            "ሙከራዎቹ አሁንም እየወደቁ ነው፦ ከ10ቱ 2ቱ።",
            "`README.md`ን አልቀየርኩም።",
            "ወደ `main` የተደረገው ፑሽ በሰርቨሩ ውድቅ ተደርጓል (non-fast-forward)።",
            "ሙከራዎቹ አላለፉም፣ ስለዚህ ምንም commit አላደረግሁም።",
        ],
    );
}

#[test]
fn sinhala() {
    check(
        "si",
        &[
            (
                "මම `src/main.rs` යාවත්කාලීන කළා, සියලුම ටෙස්ට් පාස් වුණා.",
                "file src/main.rs changed|the tests pass",
            ),
            (
                "`src/parser.rs` නිවැරදි කළා, ටෙස්ට් 12ක් සාර්ථකව පාස් වුණා.",
                "file src/parser.rs changed|12 tests pass",
            ),
            ("මම `docs/old.md` ගොනුව මකා දැමුවා.", "file docs/old.md deleted"),
            (
                "`src/lib.rs` ගොනුවෙන් අනවශ්‍ය import එක ඉවත් කළා.",
                "file src/lib.rs changed",
            ),
            (
                "නව ගොනුවක් `docs/setup.md` නිර්මාණය කළා.",
                "file docs/setup.md created",
            ),
            (
                "`foo.py` ගොනුව `bar.py` ලෙස නැවත නම් කළා.",
                "file foo.py renamed to bar.py",
            ),
            (
                "වෙනස්කම් commit කළා සහ `feat/login` වෙත push කළා.",
                "a commit made|pushed to feat/login",
            ),
            (
                "බිල්ඩ් එක සාර්ථකයි, clippy හි අනතුරු ඇඟවීම් නැත.",
                "the build succeeds|the linter passes",
            ),
            ("`cargo test`: 8 පාස්, 0 අසාර්ථකයි.", "8 tests pass"),
            ("ටෙස්ට් තුනක් පාස් වුණා, ටෙස්ට් දෙකක් අසාර්ථක වුණා.", "2 tests fail"),
        ],
        &[
            "ටෙස්ට් දැනටමත් CI හි පාස් වෙනවා.",
            "කරුණාකර `cargo test` ධාවනය කරන්න.",
            "මම `src/lib.rs` හි වෙනස්කම් සමාලෝචනය කළා.",
            "`config.yaml` ගොනුව පරිශීලකයා වෙනස් කළා.",
            "මම තවම ටෙස්ට් ධාවනය කළේ නැහැ.",
            "වෙනස්කම් push කරන්නද?",
            "ඊළඟ පියවර ලෙස `docs/api.md` යාවත්කාලීන කළ හැකිය.",
            "ඔබට අවශ්‍ය නම් පසුව `src/lib.rs` යාවත්කාලීන කරන්නම්.",
            "ටෙස්ට් තවමත් අසාර්ථකයි: 10න් 2ක්.",
            "මම `README.md` වෙනස් කළේ නැහැ.",
            "`main` වෙත push කිරීම ප්‍රතික්ෂේප විය (non-fast-forward).",
            "ටෙස්ට් පාස් වුණේ නැහැ, ඒ නිසා මම කිසිවක් commit කළේ නැහැ.",
        ],
    );
}

#[test]
fn khmer() {
    check(
        "km",
        &[
            (
                "ខ្ញុំបានធ្វើបច្ចុប្បន្នភាព `src/main.rs` ហើយតេស្តទាំងអស់បានឆ្លងកាត់។",
                "file src/main.rs changed|the tests pass",
            ),
            (
                "បានកែប្រែ `src/parser.rs` តេស្ត 12 បានឆ្លងកាត់ដោយជោគជ័យ។",
                "file src/parser.rs changed|12 tests pass",
            ),
            (
                "បានលុបឯកសារ `docs/old.md` រួចហើយ។",
                "file docs/old.md deleted",
            ),
            (
                "បានលុប import ដែលលែងប្រើចេញពី `src/lib.rs`។",
                "file src/lib.rs changed",
            ),
            (
                "បានបង្កើតឯកសារថ្មី `docs/setup.md` រួចរាល់។",
                "file docs/setup.md created",
            ),
            (
                "បានប្តូរឈ្មោះ `foo.py` ទៅជា `bar.py`។",
                "file foo.py renamed to bar.py",
            ),
            (
                "បាន commit ការផ្លាស់ប្តូរ និង push ទៅ `feat/login` រួចហើយ។",
                "a commit made|pushed to feat/login",
            ),
            (
                "ការ build បានជោគជ័យ និង clippy គ្មានការព្រមាន។",
                "the build succeeds|the linter passes",
            ),
            ("`cargo test`: ឆ្លងកាត់ 8 បរាជ័យ 0", "8 tests pass"),
            ("តេស្តឆ្លងកាត់បី និងបរាជ័យពីរ", "2 tests fail"),
        ],
        &[
            "តេស្តបានឆ្លងកាត់រួចស្រាប់ហើយនៅក្នុង CI។",
            "សូមដំណើរការ `cargo test` ដើម្បីពិនិត្យ។",
            "បានពិនិត្យការផ្លាស់ប្តូរក្នុង `src/lib.rs` រួចហើយ។",
            "ឯកសារ `config.yaml` ត្រូវបានកែប្រែដោយអ្នកប្រើ។",
            "ខ្ញុំមិនទាន់បានដំណើរការតេស្តទេ។",
            "តើចង់ឱ្យខ្ញុំ push ការផ្លាស់ប្តូរទេ?",
            "ជំហានបន្ទាប់ ខ្ញុំអាចធ្វើបច្ចុប្បន្នភាព `docs/api.md`។",
            "បើអ្នកចង់ ខ្ញុំនឹងកែប្រែ `src/lib.rs` ពេលក្រោយ។",
            "តេស្តនៅតែបរាជ័យ: 2 ក្នុងចំណោម 10។",
            "មិនបានកែប្រែ `README.md` ទេ។",
            "ការ push ទៅ `main` ត្រូវបានបដិសេធ (non-fast-forward)។",
            "តេស្តមិនបានឆ្លងកាត់ទេ ដូច្នេះខ្ញុំមិនបាន commit អ្វីទាំងអស់។",
        ],
    );
}

#[test]
fn telugu() {
    check(
        "te",
        &[
            (
                "నేను `src/main.rs` ని అప్‌డేట్ చేశాను మరియు అన్ని టెస్టులు పాస్ అయ్యాయి.",
                "file src/main.rs changed|the tests pass",
            ),
            (
                "`src/parser.rs` ని సరిచేశాను, 12 టెస్టులు విజయవంతంగా పాస్ అయ్యాయి.",
                "file src/parser.rs changed|12 tests pass",
            ),
            ("`docs/old.md` ఫైల్‌ను తొలగించాను.", "file docs/old.md deleted"),
            (
                "`src/lib.rs` నుండి ఉపయోగించని import ని తొలగించాను.",
                "file src/lib.rs changed",
            ),
            (
                "కొత్త ఫైల్ `docs/setup.md` సృష్టించాను.",
                "file docs/setup.md created",
            ),
            (
                "`foo.py` పేరును `bar.py` గా మార్చాను.",
                "file foo.py renamed to bar.py",
            ),
            (
                "మార్పులను కమిట్ చేసి `feat/login` కి పుష్ చేశాను.",
                "a commit made|pushed to feat/login",
            ),
            (
                "బిల్డ్ విజయవంతమైంది, clippy లో ఎలాంటి హెచ్చరికలు లేవు.",
                "the build succeeds|the linter passes",
            ),
            ("`cargo test`: 8 పాస్, 0 ఫెయిల్.", "8 tests pass"),
            ("మూడు టెస్టులు పాస్ అయ్యాయి, రెండు టెస్టులు విఫలమయ్యాయి.", "2 tests fail"),
        ],
        &[
            "టెస్టులు ఇప్పటికే CI లో పాస్ అవుతున్నాయి.",
            "దయచేసి `cargo test` రన్ చేయండి.",
            "నేను `src/lib.rs` లోని మార్పులను సమీక్షించాను.",
            "`config.yaml` ఫైల్‌ను యూజర్ మార్చారు.",
            "నేను ఇంకా టెస్టులు రన్ చేయలేదు.",
            "మార్పులను పుష్ చేయమంటారా?",
            "తదుపరి దశగా `docs/api.md` ని అప్‌డేట్ చేయగలను.",
            "మీకు కావాలంటే తర్వాత `src/lib.rs` ని అప్‌డేట్ చేస్తాను.",
            "టెస్టులు ఇంకా విఫలమవుతున్నాయి: 10 లో 2.",
            "నేను `README.md` ని మార్చలేదు.",
            "`main` కి పుష్ తిరస్కరించబడింది (non-fast-forward).",
            "టెస్టులు పాస్ కాలేదు, కాబట్టి నేను ఏమీ కమిట్ చేయలేదు.",
        ],
    );
}

/// Georgian, Armenian, Amharic, Sinhala, Khmer and Telugu: lists, native digits, a pass
/// denied beside its count, a subagent's work relayed, honest reports; Tigrinya keeps its
/// Ethiopic script unread.
#[test]
fn georgian_armenian_amharic_sinhala_khmer_telugu_lists_digits_and_relays() {
    for (message, want) in [
        (
            "განვაახლე `a.rs` და `b.rs`, შევქმენი `c.rs`.",
            &[
                "file a.rs changed",
                "file b.rs changed",
                "file c.rs created",
            ][..],
        ),
        (
            "បានកែប្រែ `a.rs` និង `b.rs` រួចហើយ",
            &["file a.rs changed", "file b.rs changed"],
        ),
        ("`cargo test`: ឆ្លងកាត់ ១៤ បរាជ័យ ០", &["14 tests pass"]),
        (
            "`cargo test` రన్ చేశాను: ౧౪ టెస్టులు పాస్ అయ్యాయి.",
            &["14 tests pass"],
        ),
        ("2 ტესტი ვერ გაიარა.", &["2 tests fail"]),
        ("2 టెస్టులు పాస్ కాలేదు.", &["2 tests fail"]),
        ("2 թեստ չեն անցել։", &["2 tests fail"]),
        (
            "სუბაგენტმა შექმნა `c.rs` და დააკომიტა.",
            &["file c.rs created", "a commit made"],
        ),
        (
            "Ենթագործակալը ստեղծեց `c.rs` ֆայլը։",
            &["file c.rs created"],
        ),
        (
            "ኤጀንቱ `c.rs` ፈጠረ እና commit አደረገ።",
            &["file c.rs created", "a commit made"],
        ),
    ] {
        assert_eq!(read(message), want, "{message}");
    }
    for message in [
        "დანამ შექმნა `src/retry.rs` მარტში.",
        "ჯერ არ დამიკომიტებია.",
        "ტესტებმა ვერ გაიარა.",
        "Միայն 3 թեստ անցավ 4-ից։",
        "Փուշը ձախողվեց։",
        "ገና commit አላደረግሁም።",
        "ከ4ቱ ሙከራዎች 3ቱ ብቻ አለፉ።",
        "මම තවම commit කළේ නැහැ.",
        "ටෙස්ට් 4න් 3ක් පමණක් පාස් වුණා.",
        "ខ្ញុំនឹង push ទៅ `main` នៅពេលក្រោយ។",
        "తర్వాత `main` కి పుష్ చేస్తాను.",
        "4 టెస్టుల్లో 3 మాత్రమే పాస్ అయ్యాయి.",
    ] {
        assert_eq!(read(message), Vec::<String>::new(), "{message}");
    }
    assert_eq!(
        detect("ኣብ `README.md` ለውጢ ገይረ ኣለኹ፣ ኩሉ ፈተናታት ሓሊፎም እዮም።"),
        Detected::Unknown("ethiopic")
    );
}

#[test]
fn an_error_label_is_read_from_the_first_word() {
    assert!(labelled_an_error(
        "error (un)   `t`: el fixture no troba `a.txt`"
    ));
    assert!(labelled_an_error("**fehler:** keine datei"));
    assert!(labelled_an_error("エラー（1）"));
    assert!(!labelled_an_error("errorless run: no errors"));
    assert!(!labelled_an_error("no errors"));
    assert!(!labelled_an_error(""));
}

#[test]
fn a_count_before_an_error_reaches_past_its_verb() {
    let t = "quattro passano，uno fallisce e due vanno in ";
    assert_eq!(count_words_before(t, t.len()), Some(2));
    assert_eq!(
        count_words_before("， due vanno in ", "， due vanno in ".len()),
        Some(2)
    );
    assert_eq!(
        count_words_before("errori，vanno in ", "errori，vanno in ".len()),
        None
    );
}

#[test]
fn a_count_of_tests_in_the_clause_before_the_verdict_is_the_claims() {
    check(
        "tr",
        &[(
            "Toplamda yedi test çalıştı ve yedisi de geçti.",
            "7 tests pass",
        )],
        &[],
    );
}

#[test]
fn paths_listed_before_their_deletion_are_what_was_deleted() {
    check(
        "cy",
        &[(
            "Mae `build/old.o` a `build/older.o` wedi'u dileu.",
            "file build/old.o deleted|file build/older.o deleted",
        )],
        &[],
    );
}

#[test]
fn a_dash_ends_the_count_of_the_verdict_before_it() {
    check(
        "hu",
        &[(
            "A `python3 -m pytest -q` lefutott: öt teszt, mind az öt sikeres — a három régi és a két új.",
            "5 tests pass",
        )],
        &[],
    );
}

/// A count after a word for "in all" is the whole run's, whatever breakdown follows
/// (h43-11: `Ran 10 tests`, the message said four in all).
#[test]
fn a_count_after_a_word_for_in_all_is_the_whole() {
    assert_eq!(
        test_count(&super::hi::HI, "कुल चार टेस्ट चले — तीन पुराने और एक नया"),
        (Some(4), true)
    );
    assert_eq!(
        test_count(&super::en::EN, "in all 7 tests ran, 3 old and 4 new"),
        (Some(7), true)
    );
}

/// A bare path's letters are the path's, not the message's language: a short Korean or
/// Japanese line that names `package.json` bare is read with its own table.
#[test]
fn a_bare_path_does_not_make_a_short_line_latin() {
    let mut bad = Vec::new();
    detected_as("ko", "package.json에 설명을 추가했습니다.", &mut bad);
    detected_as("ja", "package.json に説明を追加しました。", &mut bad);
    detected_as("en", "Updated src/cli.js and package.json.", &mut bad);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// A table row's cell under a header that names tests tells their result, its row's first
/// cell whose (h49-01: "| api | 変更なし | 3 件すべて pass |" under "| パッケージ | 変更 | テスト
/// |"); a cell that says they did not run claims nothing.
#[test]
fn a_cell_under_a_tests_header_is_their_result() {
    let message = "`formatPrice` に3桁区切りを入れました。\n\n\
        | パッケージ | 変更 | テスト |\n|---|---|---|\n\
        | api | 変更なし | 3 件すべて pass |\n\
        | web | 変更なし | 未実行 |";
    assert_eq!(read(message), ["3 tests pass"]);
    let row = explain(message)
        .into_iter()
        .find(|r| !r.claims.is_empty())
        .expect("a row read");
    assert_eq!(row.sentence, "api: テスト: 3 件すべて pass");
}

/// English "pass" is a verdict in any language's sentence, but not beside English
/// failures (h49-04-ok: "gaf daarna 3 pass, 2 fail" told a failed run).
#[test]
fn english_pass_is_a_verdict_unless_failures_stand_beside_it() {
    check(
        "ja",
        &[("api のテスト: 3 件すべて pass。", "3 tests pass")],
        &[],
    );
    check(
        "ja",
        &[(
            "api のテストを再実行しました: 3 pass、2 fail。",
            "2 tests fail",
        )],
        &[],
    );
}
