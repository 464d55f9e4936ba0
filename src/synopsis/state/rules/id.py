"""Indonesian extraction rules (see :mod:`synopsis.state.rules`). Patterns see lower case."""

from __future__ import annotations

from synopsis.state.rules import Rule

DETECT = (
    r"\b(?:yang|dan|di|ke|dari|untuk|dengan|ini|itu|tidak|jangan|selalu|harus|saya|aku|kamu|"
    r"anda|tolong|bisa|sudah|belum|akan|ada|juga|atau|karena|kalau|jika|saja|dulu|pakai|pake|"
    r"gunakan|mohon|terima|kasih|iya|nggak|gak|enggak|tapi|bukan|sebenarnya|ganti|tetap|"
    r"lanjut|lanjutkan|boleh|silakan|oke|sip|setuju|maksimal|minimal|hanya|cuma|jawab|dalam|"
    r"bahasa|ralat|kita|masih|perlu|orang|coba|lihat|hapus|tambahkan|perbaiki|buatkan|\w+nya)\b"
)
"""Indonesian words that English does not use: the records apply where one is."""

_TOKEN = r"[^\s,.;:!?]+"

RULES: tuple[Rule, ...] = (
    Rule(
        "must-never-id",
        "rule",
        r"\b(?:jangan pernah|tidak boleh|tak boleh|dilarang|harus|wajib|pastikan|hindari|mesti|"
        r"jangan sampai)\b|(?:^|[,;:]\s*|\bdan\s+|\btolong\s+|\bkamu\s+|\banda\s+)selalu\b",
        matches=("Jangan pernah hapus data produksi.", "Kamu harus pakai pnpm.",
                 "Selalu tulis tes dulu."),
        misses=("Servernya selalu lambat.", "Saya belum pernah lihat ini."),
    ),
    Rule(
        "dont-id",
        "rule",
        r"\bjangan\b(?!\s+(?:khawatir|kuatir|sungkan|ragu|takut|sedih)\b)",
        matches=("Jangan ubah file konfigurasi.", "Tolong jangan push ke main."),
        misses=("Jangan khawatir, sudah beres.",),
    ),
    Rule(
        "ask-first-id",
        "rule",
        r"\b(?:tanya(?:kan)? (?:saya|aku|ke saya|ke aku)|konfirmasi (?:ke |dengan )?(?:saya|aku)|"
        r"minta (?:izin|persetujuan)|izin (?:ke saya|dulu))\b|\btanpa (?:izin|persetujuan|"
        r"bertanya|tanya)\b",
        matches=("Tanya saya dulu sebelum menghapus.", "Tidak ada merge tanpa persetujuan."),
        misses=("Dia tanya soal deploy.",),
    ),
    Rule(
        "limit-id",
        "rule",
        r"\b(?:maksimal|maks|paling banyak|paling sedikit|minimal|setidaknya|tidak lebih dari|"
        r"kurang dari|tidak melebihi)\b",
        matches=("Maksimal dua permintaan per detik.", "Setidaknya 80% cakupan."),
        misses=("Servernya punya 32 GB.",),
    ),
    Rule(
        "only-and-language-id",
        "rule",
        r"\b(?:hanya|cuma|cuman)\s+(?:pakai|gunakan|boleh|pake|di|ke|untuk|dengan)\b|"
        r"\b(?:pakai|gunakan|pake)\s+[^.!?\n]{1,30}?\bsaja\b|\b(?:jawab|balas|tulis)(?:lah)? "
        r"(?:dalam|pakai|pake|dengan) bahasa (?:indonesia|inggris)\b|\b(?:saya|aku) lebih suka\b",
        matches=("Jawab dalam bahasa Indonesia.", "Hanya pakai library standar.",
                 "Aku lebih suka tab."),
        misses=("Dia bicara bahasa Inggris.",),
    ),
    Rule(
        "correction-id",
        "correction",
        r"\b(?:sebenarnya|sebetulnya|ralat|koreksi|maksud saya|maksudku|ternyata)\b",
        matches=("Sebenarnya portnya 5433.", "Ralat, kita 12 orang."),
        misses=("Portnya 5433.",),
    ),
    Rule(
        "old-value-id",
        "old-marker",
        r"(?:\bbukan|\bbukannya|\bdaripada|\bdan bukan)\s+$",
        matches=("portnya 5433, bukan ",),
        misses=("portnya ",),
    ),
    Rule(
        "moved-to-id",
        "update",
        r"\b(?:dipindah(?:kan)?|pindah(?:kan)?|diganti|ganti|diubah|ubah|dimajukan|diundur|"
        r"ditunda)\b[^.!?\n]{0,30}?\b(?:ke|jadi|menjadi|dengan|sama)\b|\bralat\b|\bsebenarnya\b",
        matches=("Rapatnya dipindah ke hari Jumat.", "Ganti npm jadi pnpm."),
        misses=("Rapatnya hari Jumat.",),
    ),
    Rule(
        "swap-old-for-new-id",
        "replace",
        rf"\b(?:ganti|ubah)\s+(?P<old>{_TOKEN})\s+(?:ke|jadi|dengan|sama|menjadi)\s+(?P<new>{_TOKEN})",
        matches=("Ganti npm jadi pnpm.",),
        misses=("Ganti nanti saja.",),
    ),
    Rule(
        "new-not-old-id",
        "replace",
        rf"(?P<new>{_TOKEN}),\s+bukan\s+(?P<old>{_TOKEN})",
        matches=("Portnya 5433, bukan 5432.",),
        misses=("Portnya 5433.",),
    ),
    Rule(
        "stays-id",
        "keep",
        r"\b(?:tetap (?:sama|seperti|begitu)|tidak berubah|biarkan (?:saja|seperti)|masih sama)\b",
        matches=("Tanggal pulangnya tetap sama.",),
        misses=("Tanggalnya berubah.",),
    ),
    Rule(
        "no-id",
        "no",
        r"^(?:tidak|nggak|gak|enggak|jangan|belum|tidak usah|nggak usah|gak usah)(?!\w)",
        matches=("Nggak usah, biarkan saja.", "belum"),
        misses=("Tidaklah mudah.",),
    ),
    Rule(
        "yes-id",
        "yes",
        r"^(?:ya|iya|yap|oke|boleh|silakan|lanjut|lanjutkan|setuju|betul|sip)(?!\w)",
        matches=("Iya, lanjutkan.", "Boleh."),
        misses=("Yang mana?",),
    ),
    Rule(
        "proposal-id",
        "proposal",
        r"\b(?:saya (?:sarankan|usulkan|rekomendasikan)|sebaiknya|mau saya|apakah (?:saya perlu|"
        r"anda mau|kamu mau)|bagaimana kalau|gimana kalau)\b",
        matches=("Saya sarankan memindahkan logika ke hook.", "Mau saya perbaiki sekarang?"),
        misses=("Saya sudah memindahkan logika.",),
    ),
    Rule(
        "still-to-do-id",
        "pending",
        r"\b(?:masih (?:perlu|harus|kurang)|belum (?:selesai|dikerjakan|diimplementasikan|dites)|"
        r"langkah (?:berikutnya|selanjutnya)|tinggal)\b",
        matches=("Login masih perlu dites.", "Langkah berikutnya adalah deploy."),
        misses=("Semua sudah dites.",),
    ),
    Rule(
        "request-id",
        "request",
        # a question to the agent, an imperative at the start, or a wish about its work
        r"^(?:(?:oke|ok|nah|terus|sekarang|juga|lalu|jadi)[,.!:]?\s+)*"
        r"(?:tolong|bisa|bisakah|mohon|coba|(?:saya|aku) (?:mau|ingin|minta)|minta|buat|buatkan|"
        r"bikin|bikinin|tambahkan|tambahin|perbaiki|benerin|cek|periksa|lihat|liat|ganti|ubah|"
        r"hapus|pindahkan|pindahin|taruh|tulis|tuliskan|perbarui|jalankan|uji|jelaskan|"
        r"tunjukkan|cari|atur|pasang|bantu|bersihkan)\b|\btolong\b|\bmohon\b",
        matches=("Coba lihat cron-nya.", "Hapus banner di halaman depan.",
                 "Aku mau laporannya keluar dalam PDF."),
        misses=("Halaman depan sudah tidak ada banner.", "Laporannya keluar dalam PDF."),
    ),
    Rule(
        "write-in-a-language-id",
        "rule",
        # the language to write or answer in ("pakai bahasa Inggris", "jawab dalam bahasa …")
        r"\b(?:pakai|gunakan|pake|tulis(?:kan)?|jawab)(?: dalam| pakai)? bahasa\b",
        matches=("Dokumentasinya tulis pakai bahasa Indonesia.",
                 "Komentarnya pakai bahasa Jepang aja."),
        misses=("Bahasa pemrogramannya Go.",),
    ),
    Rule(
        "reports-done-id",
        "done",
        r"\b(?:sudah|telah)\s+(?:(?:saya|kami|aku)\s+)?(?:mem|men|meng|meny|me|di|ber|ter)"
        r"[a-z]{3,}\b|\bberhasil\b",
        matches=("Saya sudah memperbaiki fungsi login.", "Tabel yang baru sudah dibuat.",
                 "Migrasinya berhasil, tidak ada error."),
        misses=("Saya akan memperbaiki fungsi login.", "Apakah perlu dibuat tabel baru?"),
    ),
    Rule(
        "user-choice-id",
        "choice",
        r"\bopsi\s+[a-z0-9]\b|\b(?:kita pakai|pakai yang|pilih yang|kita pilih)\b",
        matches=("Opsi B saja, itu lebih cepat.", "Kita pakai Supabase saja."),
        misses=("Opsi mana yang lebih baik?", "Saya sudah baca opsinya."),
    ),
    Rule(
        "says-broken-id",
        "broken",
        r"\b(?:masih|tetap|malah) (?:error|eror|gagal|belum bisa)\b|"
        r"\b(?:ga|gak|nggak|enggak|tidak) (?:jalan|berfungsi|muncul|bisa login)\b",
        matches=("Loginnya masih error.", "Fitur itu ga jalan di produksi."),
        misses=("Sekarang sudah jalan.", "Tidak perlu diubah."),
    ),
)  # fmt: skip
