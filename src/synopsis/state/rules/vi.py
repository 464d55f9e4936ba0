"""Vietnamese extraction rules (see :mod:`synopsis.state.rules`). Patterns see lower case."""

from __future__ import annotations

from synopsis.state.rules import Rule

DETECT = (
    r"\b(?:không|và|của|là|có|cho|với|này|đó|tôi|bạn|mình|em|anh|chị|được|đã|sẽ|đừng|phải|"
    r"luôn|chỉ|hãy|xin|thì|nhé|nha|ạ|rồi|chưa|thay|vì|dùng|"
    # the same words typed without their marks ("minh khong biet", "no van loi")
    r"khong|duoc|cua|nhung|voi|minh|toi|thi|nhe|roi|chua|van|nhu|cung|dang|khi|neu|phai|"
    r"luon|hay|lam|sao|tai|nay|nua|lai|loi|xong|chay|giup)\b|"
    r"[àáèéìíòóùúýăâđêôơưạảấầẩẫậắằẳẵặẹẻẽếềểễệỉịọỏốồổỗộớờởỡợụủứừửữựỳỵỷỹ]"
)
"""Vietnamese words that English does not use (and its tone marks): the records apply where
one is."""

_TOKEN = r"[^\s,.;:!?]+"
_START = r"(?:^|[,;:]\s*|\bvà\s+|\bnhưng\s+|\bxin\s+|\blàm ơn\s+|\bbạn\s+|\bhãy\s+)"

RULES: tuple[Rule, ...] = (
    Rule(
        "never-always-must-vi",
        "rule",
        rf"\b(?:không bao giờ|đừng bao giờ|nhất định|bắt buộc|nghiêm cấm|tuyệt đối)\b|"
        rf"{_START}luôn(?: luôn)?\b|(?<!không )\bphải\b(?!\s+(?:không|chăng|rồi)\b)",
        matches=("Không bao giờ xóa dữ liệu thật.", "Luôn viết test trước.", "Bạn phải dùng pnpm."),
        misses=("Máy chủ luôn chạy chậm.", "Cổng không phải 5432."),
    ),
    Rule(
        "dont-vi",
        "rule",
        rf"\bđừng\b|{_START}(?:không được|chớ)\b|\bcấm\b",
        matches=("Đừng sửa file cấu hình.", "Không được push thẳng lên main."),
        misses=("Chạy không được.",),
    ),
    Rule(
        "ask-first-vi",
        "rule",
        r"\bhỏi (?:tôi|mình|em|anh|chị) trước\b|\b(?:xin phép|hỏi ý kiến) (?:tôi|mình)\b|"
        r"\bkhông có (?:sự )?(?:đồng ý|cho phép) của (?:tôi|mình)\b",
        matches=("Hỏi tôi trước khi xóa bảng.", "Không merge khi không có sự đồng ý của tôi."),
        misses=("Anh ấy hỏi tôi về deploy.",),
    ),
    Rule(
        "limit-vi",
        "rule",
        r"\b(?:tối đa|tối thiểu|ít nhất|nhiều nhất|không quá|không vượt quá|trong vòng)\b",
        matches=("Tối đa hai yêu cầu mỗi giây.", "Ngân sách không quá 5 triệu."),
        misses=("Máy chủ có 32 GB.",),
    ),
    Rule(
        "only-and-language-vi",
        "rule",
        r"\bchỉ (?:dùng|sử dụng|được|cho phép)\b|\b(?:trả lời|viết|"
        r"nói) (?:bằng )?tiếng (?:việt|anh)\b|"
        r"\b(?:tôi|mình) thích (?:dùng )?\S+ hơn\b|\bưu tiên\b",
        matches=("Trả lời bằng tiếng Việt.", "Chỉ dùng thư viện chuẩn.",
                 "Tôi thích dùng pnpm hơn."),
        misses=("Anh ấy nói tiếng Pháp?",),
    ),
    Rule(
        "correction-vi",
        "correction",
        r"\b(?:thật ra|thực ra|sửa lại|đính chính|xin lỗi|nhầm|bây giờ là)\b",
        matches=("Thật ra cổng là 5433.", "Đính chính: chúng tôi 12 người."),
        misses=("Cổng là 5433.",),
    ),
    Rule(
        "old-value-vi",
        "old-marker",
        r"(?:\bkhông phải|\bthay vì|\bchứ không phải)\s+(?:là\s+)?$",
        matches=("cổng là 5433, không phải ", "pnpm thay vì "),
        misses=("cổng là ",),
    ),
    Rule(
        "moved-to-vi",
        "update",
        r"\b(?:dời|chuyển|đổi|thay|lùi|hoãn|đẩy)\b[^.!?\n]{0,30}?\b(?:sang|thành|qua|tới|đến)\b|"
        r"\bthay vì\b|\bthật ra\b|\bthực ra\b|\bđính chính\b",
        matches=("Cuộc họp đã dời sang thứ Sáu.", "Dùng pnpm thay vì npm."),
        misses=("Cuộc họp vào thứ Sáu.",),
    ),
    Rule(
        "instead-of-vi",
        "replace",
        rf"(?P<new>{_TOKEN})\s+thay vì\s+(?:là\s+)?(?P<old>{_TOKEN})",
        matches=("Dùng pnpm thay vì npm.",),
        misses=("Dùng pnpm.",),
    ),
    Rule(
        "instead-of-old-then-new-vi",
        "substitute",
        # "thay vì [tên gói là] X thì [đổi tên] thành Y": instead of X, (rename it) to Y
        rf"\bthay vì\s+(?:[^,.;:!?\n]{{0,24}}?\s(?:là|gọi là)\s+)?(?P<old>{_TOKEN})\s*,?\s*"
        rf"thì\s+(?:[^,.;:!?\n]{{0,24}}?\s)?(?:thành|là|dùng|sang)\s+(?P<new>{_TOKEN})",
        matches=("thay vì tên gói là pkg_a thì đổi tên thành pkg_b",
                 "Thay vì npm thì dùng pnpm."),
        misses=("Thay vì chờ, mình làm luôn.",),
    ),
    Rule(
        "rename-old-to-new-vi",
        "substitute",
        # "đổi tên [thư mục] X thành Y", "X thì đổi tên thành Y"
        rf"\bđổi tên\s+(?:(?:thư mục|file|tệp|gói|biến|hàm|bảng|cột|nhánh)\s+)?"
        rf"(?P<old>{_TOKEN})\s+thành\s+(?P<new>{_TOKEN})|"
        rf"(?P<old2>{_TOKEN})\s+thì\s+đổi(?: tên)? thành\s+(?P<new2>{_TOKEN})|"
        rf"\b(?:dùng|sử dụng|chọn)\s+(?P<new3>{_TOKEN})\s+thay vì\s+(?:là\s+)?(?P<old3>{_TOKEN})",
        matches=("Đổi tên thư mục out_a thành out_b.", "còn lib_x thì đổi tên thành lib_y",
                 "Dùng pnpm thay vì npm."),
        misses=("Đổi tên sau nhé.",),
    ),
    Rule(
        "new-not-old-vi",
        "replace",
        rf"(?P<new>{_TOKEN}),\s+(?:chứ\s+)?không phải(?: là)?\s+(?P<old>{_TOKEN})",
        matches=("Cổng là 5433, không phải 5432.",),
        misses=("Cổng là 5433.",),
    ),
    Rule(
        "stays-vi",
        "keep",
        r"\b(?:giữ nguyên|không đổi|vẫn như cũ|không thay đổi)\b",
        matches=("Ngày về vẫn giữ nguyên.",),
        misses=("Ngày về đã đổi.",),
    ),
    Rule(
        "no-vi",
        "no",
        r"^(?:không|khỏi|thôi|chưa|đừng|không cần)(?!\w)",
        matches=("Không, để nguyên.", "thôi"),
        misses=("Khá ổn.",),
    ),
    Rule(
        "yes-vi",
        "yes",
        r"^(?:vâng|dạ|ừ|ừm|được|đồng ý|làm đi|tiếp tục)(?!\w)",
        matches=("Vâng, làm đi.", "Được."),
        misses=("Đường dẫn sai.",),
    ),
    Rule(
        "proposal-vi",
        "proposal",
        r"\b(?:tôi (?:đề xuất|đề nghị|gợi ý|khuyên)|bạn có muốn|có muốn tôi|hay là)\b",
        matches=("Tôi đề xuất chuyển logic sang hook.", "Bạn có muốn tôi sửa không?"),
        misses=("Tôi đã chuyển logic.",),
    ),
    Rule(
        "still-to-do-vi",
        "pending",
        r"\b(?:vẫn còn (?:phải|cần)|còn phải|còn cần|chưa (?:xong|làm|hoàn thành|kiểm tra)|"
        r"bước tiếp theo|tiếp theo là)\b",
        matches=("Còn phải test đăng nhập.", "Bước tiếp theo là deploy."),
        misses=("Đã test xong hết.",),
    ),
    Rule(
        "request-vi",
        "request",
        # a polite ask ("hãy", "giúp mình", "làm ơn"), or an imperative at the start
        r"^(?:(?:ok|rồi|giờ|bây giờ|tiếp|thế|vậy)[,.!:]?\s+)*"
        r"(?:hãy|làm ơn|vui lòng|xin|bạn (?:có thể|hãy|giúp)|(?:mình|tôi|em) muốn|thêm|tạo|sửa|"
        r"kiểm tra|xem|đổi|xoá|xóa|bỏ|chuyển|viết|cập nhật|chạy|giải thích|tìm|cài|dọn)(?!\w)|"
        r"\bgiúp (?:mình|tôi|em)\b|\b(?:giùm|dùm)\b",
        matches=("Xem giùm mình cái cron.", "Bỏ banner ở trang chủ đi.",
                 "Mình muốn báo cáo xuất ra PDF."),
        misses=("Trang chủ không còn banner nữa.", "Báo cáo xuất ra PDF."),
    ),
    Rule(
        "says-broken-vi",
        "broken",
        # "không chạy/hoạt động/hiện …" (does not run, work, show), "bị lỗi/treo/lệch …"
        # (suffers an error, a hang, a misalignment), "vẫn lỗi" (still failing), a window
        # that closes by itself ("tự đóng")
        r"\bkhông (?:chạy|hoạt động|hiện|hiển thị|load|tải|mở|lên|nhận|kết nối)\b|"
        r"\bbị (?:lỗi|treo|đơ|lệch|crash|hỏng|sai|mất|vỡ|chặn)\b|"
        r"\bvẫn (?:lỗi|bị|không|chưa)\b|\btự (?:đóng|tắt|thoát)\b",
        matches=("Nút lưu không hoạt động.", "Trang đăng nhập bị lỗi 500.",
                 "Mở file bat thì cửa sổ tự tắt.", "Vẫn chưa gửi được email."),
        misses=("Giờ chạy ổn rồi.", "Không cần đổi cổng.", "Thêm xử lý lỗi cho form."),
    ),
)  # fmt: skip
