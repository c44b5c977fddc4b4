"""MCR 国标: every fan on a hand of its own, the worked examples and each ruling of docs/rules/mcr.md.

Each row is a hand and its exact items (key and fan, in the answer's order):
a fan that went missing, appeared twice or excluded a fan it should not
changes the row. The hands of the fan table agree with pymahjonggb
(tests/test_mcr_vs_gb.py checks the same way on random hands).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from taihu.cli.main import app
from taihu.scorer import HandError, score_hand, settle_table, waits
from taihu.scorer.rulesets import RULESETS

# one hand for each fan key: (the fan, the hand, its exact items)
FAN_TABLE = [
    (
        "an_gang",
        "(EEEE) 44999pCCCFF +F seat:W round:E",
        [
            ("san_an_ke", 16),
            ("peng_peng_he", 6),
            ("hun_yi_se", 6),
            ("shuang_jian_ke", 6),
            ("quan_feng_ke", 2),
            ("men_qian_qing", 2),
            ("an_gang", 2),
            ("yao_jiu_ke", 1),
        ],
    ),
    ("bian_zhang", "[345m] [456p] 12s 567s SS +3s seat:N", [("san_se_san_bu_gao", 6), ("bian_zhang", 1)]),
    (
        "bu_qiu_ren",
        "122223mSWWWCCC +S seat:N round:E self",
        [
            ("san_an_ke", 16),
            ("hun_yi_se", 6),
            ("bu_qiu_ren", 4),
            ("jian_ke", 2),
            ("si_gui_yi", 2),
            ("yao_jiu_ke", 1),
            ("dan_diao_jiang", 1),
        ],
    ),
    (
        "da_san_yuan",
        "[CCCC] 678m9pFFFPPP +9p seat:S round:S",
        [("da_san_yuan", 88), ("shuang_an_ke", 2), ("ming_gang", 1), ("que_yi_men", 1), ("dan_diao_jiang", 1)],
    ),
    (
        "da_si_xi",
        "[EEE] [SSSS] WWW NN 55p +N seat:N round:S self",
        [("da_si_xi", 88), ("hun_yi_se", 6), ("shuang_an_ke", 2), ("ming_gang", 1), ("zi_mo", 1)],
    ),
    (
        "da_yu_wu",
        "7777m667777888s +8s seat:N round:E",
        [
            ("qi_dui", 24),
            ("da_yu_wu", 12),
            ("si_gui_yi", 2),
            ("si_gui_yi", 2),
            ("si_gui_yi", 2),
            ("duan_yao", 2),
            ("que_yi_men", 1),
        ],
    ),
    (
        "dan_diao_jiang",
        "456888sCFFFPPP +C seat:E round:N",
        [("xiao_san_yuan", 64), ("san_an_ke", 16), ("hun_yi_se", 6), ("men_qian_qing", 2), ("dan_diao_jiang", 1)],
    ),
    (
        "duan_yao",
        "2223333456888p +7p seat:S round:E",
        [
            ("qing_yi_se", 24),
            ("men_qian_qing", 2),
            ("si_gui_yi", 2),
            ("shuang_an_ke", 2),
            ("duan_yao", 2),
            ("lian_liu", 1),
        ],
    ),
    (
        "gang_shang_kai_hua",
        "[FFFF] 11167888pEE +E seat:W round:N kong-draw",
        [
            ("gang_shang_kai_hua", 8),
            ("hun_yi_se", 6),
            ("jian_ke", 2),
            ("shuang_an_ke", 2),
            ("yao_jiu_ke", 1),
            ("yao_jiu_ke", 1),
            ("ming_gang", 1),
        ],
    ),
    (
        "hai_di_lao_yue",
        "EEEESSSSWWNNP +P seat:N round:E last-tile",
        [("zi_yi_se", 64), ("qi_dui", 24), ("hai_di_lao_yue", 8), ("si_gui_yi", 2), ("si_gui_yi", 2)],
    ),
    (
        "he_jue_zhang",
        "[222s] 1333356788s +2s seat:E round:S",
        [("qing_yi_se", 24), ("he_jue_zhang", 4), ("si_gui_yi", 2), ("si_gui_yi", 2), ("kan_zhang", 1)],
    ),
    (
        "hua_long",
        "123m1234599p789s +6p seat:W round:S",
        [("hua_long", 8), ("men_qian_qing", 2), ("ping_he", 2), ("xi_xiang_feng", 1)],
    ),
    (
        "hua_pai",
        "23334444pEESSS f4 +E seat:W round:E",
        [
            ("hun_yi_se", 6),
            ("quan_feng_ke", 2),
            ("men_qian_qing", 2),
            ("si_gui_yi", 2),
            ("shuang_an_ke", 2),
            ("yao_jiu_ke", 1),
            ("hua_pai", 1),
        ],
    ),
    (
        "hun_yao_jiu",
        "99mEESSSSWFFFF +W seat:E round:S",
        [("hun_yao_jiu", 32), ("qi_dui", 24), ("hun_yi_se", 6), ("si_gui_yi", 2), ("si_gui_yi", 2)],
    ),
    (
        "hun_yi_se",
        "23333444666sNN +N seat:S round:E",
        [("hun_yi_se", 6), ("men_qian_qing", 2), ("si_gui_yi", 2), ("shuang_an_ke", 2), ("yao_jiu_ke", 1)],
    ),
    (
        "jian_ke",
        "11112333388sCC +C seat:S round:N",
        [
            ("hun_yi_se", 6),
            ("jian_ke", 2),
            ("men_qian_qing", 2),
            ("si_gui_yi", 2),
            ("si_gui_yi", 2),
            ("shuang_an_ke", 2),
            ("yao_jiu_ke", 1),
        ],
    ),
    (
        "jiu_lian_bao_deng",
        "1112345678999p +9p seat:S self",
        [("jiu_lian_bao_deng", 88), ("qing_long", 16), ("si_gui_yi", 2), ("zi_mo", 1)],
    ),
    (
        "kan_zhang",
        "123m 456p 789s 13p 55s +2p",
        [("hua_long", 8), ("men_qian_qing", 2), ("ping_he", 2), ("xi_xiang_feng", 1), ("kan_zhang", 1)],
    ),
    (
        "lao_shao_fu",
        "122334777789sC +C seat:E round:E",
        [("hun_yi_se", 6), ("men_qian_qing", 2), ("si_gui_yi", 2), ("lao_shao_fu", 1), ("dan_diao_jiang", 1)],
    ),
    (
        "lian_liu",
        "456789mEESSSNN +E seat:N round:E",
        [("hun_yi_se", 6), ("quan_feng_ke", 2), ("men_qian_qing", 2), ("lian_liu", 1), ("yao_jiu_ke", 1)],
    ),
    ("lian_qi_dui", "3344566778899p f8 +5p seat:N round:S self", [("lian_qi_dui", 88), ("zi_mo", 1), ("hua_pai", 1)]),
    (
        "lv_yi_se",
        "2233334666888s +4s seat:W round:N",
        [
            ("lv_yi_se", 88),
            ("qing_yi_se", 24),
            ("men_qian_qing", 2),
            ("si_gui_yi", 2),
            ("shuang_an_ke", 2),
            ("duan_yao", 2),
            ("yi_ban_gao", 1),
        ],
    ),
    (
        "men_feng_ke",
        "11223333666pWW +W seat:W round:N",
        [("hun_yi_se", 6), ("men_feng_ke", 2), ("men_qian_qing", 2), ("si_gui_yi", 2), ("yi_ban_gao", 1)],
    ),
    (
        "men_qian_qing",
        "23333444666sNN +N seat:S round:E",
        [("hun_yi_se", 6), ("men_qian_qing", 2), ("si_gui_yi", 2), ("shuang_an_ke", 2), ("yao_jiu_ke", 1)],
    ),
    (
        "miao_shou_hui_chun",
        "345777sEEEWFFF +W seat:N round:W self last-tile",
        [
            ("san_an_ke", 16),
            ("miao_shou_hui_chun", 8),
            ("hun_yi_se", 6),
            ("bu_qiu_ren", 4),
            ("jian_ke", 2),
            ("yao_jiu_ke", 1),
            ("dan_diao_jiang", 1),
        ],
    ),
    (
        "ming_an_gang",
        "(NNNN) [PPPP] 11444sSS +S seat:E round:W",
        [
            ("peng_peng_he", 6),
            ("hun_yi_se", 6),
            ("ming_an_gang", 5),
            ("jian_ke", 2),
            ("shuang_an_ke", 2),
            ("yao_jiu_ke", 1),
            ("yao_jiu_ke", 1),
        ],
    ),
    (
        "ming_gang",
        "[SSSS] 556677pWWNN +W seat:W round:E",
        [("hun_yi_se", 6), ("men_feng_ke", 2), ("yi_ban_gao", 1), ("yao_jiu_ke", 1), ("ming_gang", 1)],
    ),
    (
        "peng_peng_he",
        "11666999mSSCCC +S seat:S round:E",
        [
            ("san_an_ke", 16),
            ("peng_peng_he", 6),
            ("hun_yi_se", 6),
            ("jian_ke", 2),
            ("men_feng_ke", 2),
            ("men_qian_qing", 2),
            ("yao_jiu_ke", 1),
        ],
    ),
    (
        "ping_he",
        "1233445556667m +3m seat:W round:W",
        [("qing_yi_se", 24), ("yi_se_san_bu_gao", 16), ("men_qian_qing", 2), ("ping_he", 2), ("yi_ban_gao", 1)],
    ),
    ("qi_dui", "4499pEESSNPPPP +N seat:E round:E", [("qi_dui", 24), ("hun_yi_se", 6), ("si_gui_yi", 2)]),
    ("qi_xing_bu_kao", "39m28p147sESWNFP +C seat:W round:W", [("qi_xing_bu_kao", 24)]),
    (
        "qiang_gang_he",
        "3344556777mNNN +2m seat:N round:W rob-kong",
        [("qiang_gang_he", 8), ("hun_yi_se", 6), ("men_feng_ke", 2), ("men_qian_qing", 2), ("lian_liu", 1)],
    ),
    ("qing_long", "22334456789mFF +1m seat:N round:W", [("qing_long", 16), ("hun_yi_se", 6), ("men_qian_qing", 2)]),
    ("qing_yao_jiu", "111m999m111p999p1s +1s", [("qing_yao_jiu", 64), ("si_an_ke", 64), ("dan_diao_jiang", 1)]),
    (
        "qing_yi_se",
        "1233445556667m +3m seat:W round:W",
        [("qing_yi_se", 24), ("yi_se_san_bu_gao", 16), ("men_qian_qing", 2), ("ping_he", 2), ("yi_ban_gao", 1)],
    ),
    ("quan_bu_kao", "369m258p147sSWNC +E seat:N round:N", [("quan_bu_kao", 12), ("zu_he_long", 12)]),
    (
        "quan_da",
        "77788m789p77799s +9s seat:N round:W",
        [("quan_da", 24), ("men_qian_qing", 2), ("shuang_tong_ke", 2), ("shuang_an_ke", 2), ("yao_jiu_ke", 1)],
    ),
    (
        "quan_dai_wu",
        "4555567m345567s +3m seat:E round:S",
        [
            ("quan_dai_wu", 16),
            ("men_qian_qing", 2),
            ("ping_he", 2),
            ("si_gui_yi", 2),
            ("xi_xiang_feng", 1),
            ("xi_xiang_feng", 1),
            ("que_yi_men", 1),
        ],
    ),
    (
        "quan_dai_yao",
        "123mEEEWWFFFPP +W seat:S round:E",
        [
            ("hun_yi_se", 6),
            ("quan_dai_yao", 4),
            ("jian_ke", 2),
            ("quan_feng_ke", 2),
            ("men_qian_qing", 2),
            ("shuang_an_ke", 2),
            ("yao_jiu_ke", 1),
        ],
    ),
    (
        "quan_feng_ke",
        "345789mEECCPPP +E seat:E round:E",
        [("hun_yi_se", 6), ("jian_ke", 2), ("quan_feng_ke", 2), ("men_feng_ke", 2), ("men_qian_qing", 2)],
    ),
    (
        "quan_qiu_ren",
        "[4444p] [SSS] [FFF] [234s] C +C seat:S round:N",
        [("quan_qiu_ren", 6), ("jian_ke", 2), ("men_feng_ke", 2), ("ming_gang", 1), ("que_yi_men", 1)],
    ),
    (
        "quan_shuang_ke",
        "[888m] 2244m222888p +4m seat:S round:N",
        [("quan_shuang_ke", 24), ("shuang_tong_ke", 2), ("shuang_an_ke", 2), ("que_yi_men", 1)],
    ),
    (
        "quan_xiao",
        "11222333p12233s +1s seat:W round:S",
        [("quan_xiao", 24), ("men_qian_qing", 2), ("shuang_an_ke", 2), ("yi_ban_gao", 1), ("que_yi_men", 1)],
    ),
    (
        "quan_zhong",
        "456666m4555p444s +6p seat:E round:E",
        [("quan_zhong", 24), ("men_qian_qing", 2), ("si_gui_yi", 2), ("shuang_an_ke", 2), ("xi_xiang_feng", 1)],
    ),
    (
        "que_yi_men",
        "778899m123999pW +W seat:W round:W",
        [
            ("quan_dai_yao", 4),
            ("men_qian_qing", 2),
            ("yi_ban_gao", 1),
            ("yao_jiu_ke", 1),
            ("que_yi_men", 1),
            ("dan_diao_jiang", 1),
        ],
    ),
    (
        "san_an_ke",
        "456888sCFFFPPP +C seat:E round:N",
        [("xiao_san_yuan", 64), ("san_an_ke", 16), ("hun_yi_se", 6), ("men_qian_qing", 2), ("dan_diao_jiang", 1)],
    ),
    (
        "san_feng_ke",
        "333m66sEESSSNNN +E seat:W round:N",
        [
            ("san_an_ke", 16),
            ("san_feng_ke", 12),
            ("peng_peng_he", 6),
            ("quan_feng_ke", 2),
            ("men_qian_qing", 2),
            ("que_yi_men", 1),
        ],
    ),
    (
        "san_gang",
        "[1111p] [4444p] [CCCC] 2333m +2m seat:S round:E",
        [("san_gang", 32), ("peng_peng_he", 6), ("jian_ke", 2), ("yao_jiu_ke", 1), ("que_yi_men", 1)],
    ),
    (
        "san_se_san_bu_gao",
        "22567m345p456sWW +W seat:S round:E",
        [("san_se_san_bu_gao", 6), ("men_qian_qing", 2), ("yao_jiu_ke", 1)],
    ),
    (
        "san_se_san_jie_gao",
        "44666m555p444sCC +C seat:S round:E",
        [("san_an_ke", 16), ("san_se_san_jie_gao", 8), ("peng_peng_he", 6), ("jian_ke", 2), ("men_qian_qing", 2)],
    ),
    (
        "san_se_san_tong_shun",
        "[234p] 234m234sNNFF +N seat:S round:S",
        [("san_se_san_tong_shun", 8), ("wu_men_qi", 6), ("yao_jiu_ke", 1)],
    ),
    (
        "san_se_shuang_long_hui",
        "123m789m123p789p5s +5s",
        [("san_se_shuang_long_hui", 16), ("men_qian_qing", 2), ("dan_diao_jiang", 1)],
    ),
    (
        "san_tong_ke",
        "33344466m33p333s +3p seat:S round:S",
        [("san_tong_ke", 16), ("san_an_ke", 16), ("peng_peng_he", 6), ("men_qian_qing", 2), ("duan_yao", 2)],
    ),
    ("shi_san_yao", "19m19p19sESWNNFP +C seat:W round:E", [("shi_san_yao", 88)]),
    (
        "shuang_an_gang",
        "(1111m) (2222s) 77m789sNN +N seat:E round:N",
        [("shuang_an_gang", 6), ("quan_feng_ke", 2), ("men_qian_qing", 2), ("yao_jiu_ke", 1), ("que_yi_men", 1)],
    ),
    (
        "shuang_an_ke",
        "23333444666sNN +N seat:S round:E",
        [("hun_yi_se", 6), ("men_qian_qing", 2), ("si_gui_yi", 2), ("shuang_an_ke", 2), ("yao_jiu_ke", 1)],
    ),
    (
        "shuang_jian_ke",
        "22244567sCCCFF +F seat:E round:W",
        [("hun_yi_se", 6), ("shuang_jian_ke", 6), ("men_qian_qing", 2), ("shuang_an_ke", 2)],
    ),
    (
        "shuang_ming_gang",
        "[EEEE] [6666m] 1112224m +4m seat:S round:N",
        [
            ("peng_peng_he", 6),
            ("hun_yi_se", 6),
            ("shuang_ming_gang", 4),
            ("shuang_an_ke", 2),
            ("yao_jiu_ke", 1),
            ("yao_jiu_ke", 1),
        ],
    ),
    (
        "shuang_tong_ke",
        "22245688m222sSS +S seat:S round:E",
        [("men_feng_ke", 2), ("men_qian_qing", 2), ("shuang_tong_ke", 2), ("shuang_an_ke", 2), ("que_yi_men", 1)],
    ),
    (
        "si_an_ke",
        "111444555666pN +N seat:E round:E",
        [("si_an_ke", 64), ("yi_se_san_jie_gao", 24), ("hun_yi_se", 6), ("yao_jiu_ke", 1), ("dan_diao_jiang", 1)],
    ),
    (
        "si_gang",
        "[1111m] [2222p] [3333s] [4444m] 5p +5p",
        [("si_gang", 88), ("san_se_san_jie_gao", 8), ("quan_qiu_ren", 6), ("yao_jiu_ke", 1), ("wu_zi", 1)],
    ),
    (
        "si_gui_yi",
        "23333444666sNN +N seat:S round:E",
        [("hun_yi_se", 6), ("men_qian_qing", 2), ("si_gui_yi", 2), ("shuang_an_ke", 2), ("yao_jiu_ke", 1)],
    ),
    (
        "tui_bu_dao",
        "2244666889999s +6s seat:N round:W",
        [("qi_dui", 24), ("qing_yi_se", 24), ("tui_bu_dao", 8), ("si_gui_yi", 2), ("si_gui_yi", 2)],
    ),
    ("wu_fan_he", "[123p] 222m45677sWW +7s seat:N round:N", [("wu_fan_he", 8)]),
    ("wu_men_qi", "1133m55p99sWWNNF +F seat:W round:W", [("qi_dui", 24), ("wu_men_qi", 6)]),
    (
        "wu_zi",
        "11555577m22377p +3p seat:E round:N",
        [("qi_dui", 24), ("si_gui_yi", 2), ("que_yi_men", 1), ("wu_zi", 1)],
    ),
    (
        "xi_xiang_feng",
        "345m111345pEEEC +C seat:E round:N",
        [
            ("men_feng_ke", 2),
            ("men_qian_qing", 2),
            ("shuang_an_ke", 2),
            ("xi_xiang_feng", 1),
            ("yao_jiu_ke", 1),
            ("que_yi_men", 1),
            ("dan_diao_jiang", 1),
        ],
    ),
    (
        "xiao_san_yuan",
        "456888sCFFFPPP +C seat:E round:N",
        [("xiao_san_yuan", 64), ("san_an_ke", 16), ("hun_yi_se", 6), ("men_qian_qing", 2), ("dan_diao_jiang", 1)],
    ),
    (
        "xiao_si_xi",
        "[NNN] 678pEESSSWW +E seat:W round:S self",
        [("xiao_si_xi", 64), ("hun_yi_se", 6), ("quan_feng_ke", 2), ("shuang_an_ke", 2), ("zi_mo", 1)],
    ),
    (
        "xiao_yu_wu",
        "111222m2233444s +3s seat:N round:E",
        [
            ("san_an_ke", 16),
            ("xiao_yu_wu", 12),
            ("peng_peng_he", 6),
            ("men_qian_qing", 2),
            ("yao_jiu_ke", 1),
            ("que_yi_men", 1),
        ],
    ),
    (
        "yao_jiu_ke",
        "23333444666sNN +N seat:S round:E",
        [("hun_yi_se", 6), ("men_qian_qing", 2), ("si_gui_yi", 2), ("shuang_an_ke", 2), ("yao_jiu_ke", 1)],
    ),
    (
        "yi_ban_gao",
        "11223333666pWW +W seat:W round:N",
        [("hun_yi_se", 6), ("men_feng_ke", 2), ("men_qian_qing", 2), ("si_gui_yi", 2), ("yi_ban_gao", 1)],
    ),
    (
        "yi_se_san_bu_gao",
        "1233445556667m +3m seat:W round:W",
        [("qing_yi_se", 24), ("yi_se_san_bu_gao", 16), ("men_qian_qing", 2), ("ping_he", 2), ("yi_ban_gao", 1)],
    ),
    (
        "yi_se_san_jie_gao",
        "111444555666pN +N seat:E round:E",
        [("si_an_ke", 64), ("yi_se_san_jie_gao", 24), ("hun_yi_se", 6), ("yao_jiu_ke", 1), ("dan_diao_jiang", 1)],
    ),
    (
        "yi_se_san_tong_shun",
        "1233334445588m +5m seat:S round:N",
        [("qing_yi_se", 24), ("yi_se_san_tong_shun", 24), ("men_qian_qing", 2), ("ping_he", 2), ("si_gui_yi", 2)],
    ),
    (
        "yi_se_shuang_long_hui",
        "112233778899m 5m +5m",
        [("yi_se_shuang_long_hui", 64), ("men_qian_qing", 2), ("dan_diao_jiang", 1)],
    ),
    ("yi_se_si_bu_gao", "[678p] 45567789pPP +6p seat:W round:W", [("yi_se_si_bu_gao", 32), ("hun_yi_se", 6)]),
    (
        "yi_se_si_jie_gao",
        "[444p] 2223335566p +5p seat:S round:W",
        [("yi_se_si_jie_gao", 48), ("qing_yi_se", 24), ("shuang_an_ke", 2), ("duan_yao", 2)],
    ),
    (
        "yi_se_si_tong_shun",
        "1166667778888m f1 +7m seat:W round:W",
        [("yi_se_si_tong_shun", 48), ("qing_yi_se", 24), ("men_qian_qing", 2), ("ping_he", 2), ("hua_pai", 1)],
    ),
    (
        "zi_mo",
        "EEEESSNNCCCPP +C seat:E round:S self",
        [("zi_yi_se", 64), ("qi_dui", 24), ("si_gui_yi", 2), ("si_gui_yi", 2), ("zi_mo", 1)],
    ),
    (
        "zi_yi_se",
        "EEEESSNNCCCPP +C seat:E round:S self",
        [("zi_yi_se", 64), ("qi_dui", 24), ("si_gui_yi", 2), ("si_gui_yi", 2), ("zi_mo", 1)],
    ),
    ("zu_he_long", "369m258p147sSWNC +E seat:N round:N", [("quan_bu_kao", 12), ("zu_he_long", 12)]),
]


def items(line: str, **options: int) -> list[tuple[str, int]]:
    return [(item.key, item.value) for item in score_hand(line, rules="mcr", options=options).items]


@pytest.mark.parametrize(("key", "line", "expected"), FAN_TABLE, ids=[row[0] for row in FAN_TABLE])
def test_each_fan_on_its_hand(key: str, line: str, expected: list[tuple[str, int]]) -> None:
    assert items(line) == expected
    assert key in dict(expected)


def test_the_table_reaches_every_fan() -> None:
    assert {key for key, _, _ in FAN_TABLE} == {item.key for item in RULESETS["mcr"].items}


SPEC_KEYS = """da_si_xi da_san_yuan lv_yi_se jiu_lian_bao_deng si_gang lian_qi_dui shi_san_yao qing_yao_jiu xiao_si_xi
xiao_san_yuan zi_yi_se si_an_ke yi_se_shuang_long_hui yi_se_si_tong_shun yi_se_si_jie_gao yi_se_si_bu_gao san_gang
hun_yao_jiu qi_dui qi_xing_bu_kao quan_shuang_ke qing_yi_se yi_se_san_tong_shun yi_se_san_jie_gao quan_da quan_zhong
quan_xiao qing_long san_se_shuang_long_hui yi_se_san_bu_gao quan_dai_wu san_tong_ke san_an_ke quan_bu_kao zu_he_long
da_yu_wu xiao_yu_wu san_feng_ke hua_long tui_bu_dao san_se_san_tong_shun san_se_san_jie_gao wu_fan_he
miao_shou_hui_chun hai_di_lao_yue gang_shang_kai_hua qiang_gang_he peng_peng_he hun_yi_se san_se_san_bu_gao wu_men_qi
quan_qiu_ren shuang_an_gang shuang_jian_ke quan_dai_yao bu_qiu_ren shuang_ming_gang he_jue_zhang jian_ke quan_feng_ke
men_feng_ke men_qian_qing ping_he si_gui_yi shuang_tong_ke shuang_an_ke an_gang duan_yao yi_ban_gao xi_xiang_feng
lian_liu lao_shao_fu yao_jiu_ke ming_gang que_yi_men wu_zi bian_zhang kan_zhang dan_diao_jiang zi_mo hua_pai""".split()


def test_rules_json_lists_the_81_fan_and_the_ming_an_gang_ruling() -> None:
    result = CliRunner().invoke(app, ["rules", "mcr", "--json"])
    assert result.exit_code == 0, result.output
    shown = json.loads(result.output)
    keys = [item["key"] for item in shown["items"]]
    assert len(SPEC_KEYS) == len(set(SPEC_KEYS)) == 81
    assert sorted(keys) == sorted([*SPEC_KEYS, "ming_an_gang"])
    assert shown["unit"] == "fan"


# -- the worked examples -------------------------------------------------------------------

WORKED = [
    ("[123m] [345m] 678p 56s WW +7s seat:N", [("wu_fan_he", 8)], 8, 8, True),
    (
        "[345m] [456p] 12s 567s SS f1 f2 f3 f4 f5 f6 f7 f8 +3s seat:N",
        [("san_se_san_bu_gao", 6), ("bian_zhang", 1), *[("hua_pai", 1)] * 8],
        7,
        15,
        False,
    ),
    (
        "1112345678999p +9p seat:S self",
        [("jiu_lian_bao_deng", 88), ("qing_long", 16), ("si_gui_yi", 2), ("zi_mo", 1)],
        107,
        107,
        True,
    ),
    (
        "234567m 23456p 55s +7p seat:W",
        [
            ("men_qian_qing", 2),
            ("ping_he", 2),
            ("duan_yao", 2),
            ("xi_xiang_feng", 1),
            ("xi_xiang_feng", 1),
            ("lian_liu", 1),
        ],
        9,
        9,
        True,
    ),
    (
        "555666777p 5556s +7s self",
        [
            ("yi_se_san_tong_shun", 24),
            ("quan_dai_wu", 16),
            ("bu_qiu_ren", 4),
            ("ping_he", 2),
            ("xi_xiang_feng", 1),
            ("que_yi_men", 1),
        ],
        48,
        48,
        True,
    ),
    (
        "[EEE] [SSSS] WWW NN 55p +N seat:N round:S self",
        [("da_si_xi", 88), ("hun_yi_se", 6), ("shuang_an_ke", 2), ("ming_gang", 1), ("zi_mo", 1)],
        98,
        98,
        True,
    ),
    (
        "[333m] [456p] [789s] 1113m +2m",
        [("hua_long", 8), ("si_gui_yi", 2), ("wu_zi", 1), ("kan_zhang", 1)],
        12,
        12,
        True,
    ),
    (
        "[1111m] (5555p) 234s 789p C +C seat:W",
        [("ming_an_gang", 5), ("yao_jiu_ke", 1), ("dan_diao_jiang", 1)],
        7,
        7,
        False,
    ),
]


@pytest.mark.parametrize(("line", "expected", "subtotal", "total", "legal"), WORKED, ids=[str(i + 1) for i in range(8)])
def test_worked_example(line: str, expected: list[tuple[str, int]], subtotal: int, total: int, legal: bool) -> None:
    score = score_hand(line, rules="mcr")
    assert [(i.key, i.value) for i in score.items] == expected
    assert (score.subtotal, score.total, score.legal, score.doubled, score.unit) == (
        subtotal,
        total,
        legal,
        False,
        "fan",
    )


def test_below_the_minimum_is_answered_with_its_fan_and_the_note() -> None:
    score = score_hand("[345m] [456p] 12s 567s SS f1 f2 f3 f4 f5 f6 f7 f8 +3s seat:N", rules="mcr")
    assert [str(note) for note in score.notes] == ["起和番不足: 7 fan, a win needs 8 (flowers do not count)"]


def test_the_knitted_straight_is_shown_as_one_group() -> None:
    assert score_hand("147m258p369s 456m 5p +5p", rules="mcr").arrangement == ["147m258p369s", "456m", "55p"]


def test_a_non_winner_scores_nothing() -> None:
    score = score_hand("234567m 23456p 55s seat:W", rules="mcr")
    assert (score.winner, score.total, score.items) == (False, 0, [])


# -- the rulings -----------------------------------------------------------------------------


def test_ruling_he_jue_zhang_written_or_implied_by_own_exposed_melds() -> None:
    assert ("he_jue_zhang", 4) in items("[345m] 12m 678p 789s 55p +3m fourth-tile")
    assert ("he_jue_zhang", 4) in items("[333m] 12m 678p 789s 55p +3m")
    assert ("he_jue_zhang", 4) not in items("[345m] 12m 678p 789s 55p +3m")


def test_ruling_fourth_tile_with_the_kind_in_own_concealed_tiles_is_an_error() -> None:
    with pytest.raises(HandError, match="fourth-tile"):
        score_hand("123m 345m 678p 22s 55p +3m fourth-tile", rules="mcr")


def test_ruling_rob_kong_excludes_he_jue_zhang() -> None:
    found = items("[234m] [567p] 34s 789s 11p +5s rob-kong fourth-tile")
    assert ("qiang_gang_he", 8) in found and ("he_jue_zhang", 4) not in found


def test_ruling_exhausted_waits_the_other_wait_is_single() -> None:
    """Every 6s is held, so 7s was the one wait: 边张 by its place in 789s (pymahjonggb: no wait fan)."""
    assert ("bian_zhang", 1) in items("5558888999sWWW +7s seat:E round:E")
    assert ("bian_zhang", 1) not in items("56p 123m 789s 345s EE +4p")  # 4p or 7p: no 独听


def test_ruling_ming_an_gang_five_by_default_six_or_apart_by_option() -> None:
    line = "[1111m] (5555p) 234s 789p C +C seat:W"
    assert ("ming_an_gang", 5) in items(line)
    assert ("ming_an_gang", 6) in items(line, ming_an_gang=6)
    apart = items(line, ming_an_gang=0)
    assert ("ming_gang", 1) in apart and ("an_gang", 2) in apart and "ming_an_gang" not in dict(apart)
    assert score_hand(line, rules="mcr", options={"ming_an_gang": 0}).total == 5


def test_ruling_knitted_straight_wait_read_in_the_set_beside_it() -> None:
    """The winning 5p completes the pair beside the straight: 独听, 单钓将, though 5p is no tile of the nine."""
    assert ("dan_diao_jiang", 1) in items("147m258p369s 456m 5p +5p")


def test_ruling_heaven_earth_human_are_no_mcr_fan() -> None:
    for word in ("heaven", "earth", "human"):
        with pytest.raises(HandError, match="天和/地和/人和"):
            score_hand(f"234567m 23456p 55s +7p {word}", rules="mcr")


def test_ruling_si_gui_yi_with_seven_pairs_even_where_forced() -> None:
    assert items("2222334466888s +8s") == [
        ("lv_yi_se", 88),
        ("qi_dui", 24),
        ("qing_yi_se", 24),
        ("si_gui_yi", 2),
        ("si_gui_yi", 2),
        ("duan_yao", 2),
    ]


def test_ruling_nine_gates_only_the_nine_sided_hand() -> None:
    assert "jiu_lian_bao_deng" not in dict(items("1112345678899p +9p self"))
    assert items("1112345678999m +5m") == [
        ("jiu_lian_bao_deng", 88),
        ("shuang_an_ke", 2),
        ("yao_jiu_ke", 1),
    ]


def test_ruling_qing_yao_jiu_keeps_san_tong_ke() -> None:
    found = items("111m111p111s999m9p +9p")
    assert ("qing_yao_jiu", 64) in found and ("san_tong_ke", 16) in found and "shuang_tong_ke" not in dict(found)


def test_ruling_kongs_still_count_concealed_pungs() -> None:
    assert ("san_an_ke", 16) in items("(1111m) (2222p) (3333s) 456p 7m +7m seat:N")


def test_ruling_kong_draw_with_last_tile() -> None:
    found = items("(2222p) 345m 678m 11s 99m +9m kong-draw last-tile")
    assert ("gang_shang_kai_hua", 8) in found and ("miao_shou_hui_chun", 8) in found and "zi_mo" not in dict(found)


def test_ruling_ties_standard_before_seven_pairs() -> None:
    """112233m 445566p 7s: 一般高 ×2 + … or 七对; the readings are scored, the highest kept."""
    score = score_hand("112233m445566p7s +7s", rules="mcr")
    assert ("qi_dui", 24) in [(i.key, i.value) for i in score.items]


# -- conditions and errors ---------------------------------------------------------------------

ERRORS = [
    ("234567m 23456p 55s +7p kong-draw", "kong"),
    ("[2222p] 345m 678m 11s 99m +9m kong-draw rob-kong", "rob-kong"),
    ("234567m 23456p 55s +7p rob-kong self", "rob-kong"),
    ("234567m 23456p 55s +7p rob-kong last-tile", "last"),
    ("234567m 23457p 55s +7p rob-kong", "rob-kong"),
    ("234567m 23456p 55s +7p f1 f1", "f1"),
    ("234567m 23456p 55s +7p wild:5m", "wildcards"),
    ("234567m 23456p 55s +7p (f5f6f7f8)", "flower"),
    ("234567m 23456p 55s +7p riichi", "riichi"),
    ("2345678m 3456p 55s +1p", "no MCR winning shape"),
    ("11m 22m 33m 44p 55p [777s] +6p", "no MCR winning shape"),
]


@pytest.mark.parametrize(("line", "says"), ERRORS)
def test_contradictions_and_other_rule_sets_words_are_errors(line: str, says: str) -> None:
    with pytest.raises(HandError, match=says):
        score_hand(line, rules="mcr")


def test_fourth_tile_is_mcr_s_word_elsewhere() -> None:
    with pytest.raises(HandError, match="mcr"):
        score_hand("123m 456m 789p 234s 678s 5p +5p wild:9s,N seat:W fourth-tile", rules="lingxi")


@pytest.mark.parametrize(
    ("words", "reads"),
    [
        ("自摸", "self"),
        ("杠上开花", "kong-draw"),
        ("抢杠和", "rob-kong"),
        ("妙手回春", "last-tile self"),
        ("海底捞月", "last-tile"),
        ("河底", "last-tile"),
        ("绝张", "fourth-tile"),
        ("圈风南", "round:S"),
        ("东风圈", "round:E"),
        ("西家", "seat:W"),
        ("门风北", "seat:N"),
    ],
)
def test_players_words(words: str, reads: str) -> None:
    hand = "[123m] [345m] 678p 56s WW +7s"
    if "fourth" in reads:
        hand = "[345m] 12m 678p 789s 55p +3m"
    elif reads == "kong-draw":
        hand = "[2222p] 345m 678m 11s 99m +9m"
    plain = score_hand(f"{hand} {reads}", rules="mcr")
    said = score_hand(f"{hand} {words}", rules="mcr")
    assert said.hand == plain.hand and said.total == plain.total


# -- settlement ---------------------------------------------------------------------------------


def table(**fields: object) -> dict[str, object]:
    players = {"E": {"total": 0}, "S": {"total": 0}, "W": {"total": 0}, "N": {"total": 0}}
    return {"rules": "mcr", "winner": None, "discarder": None, "players": players} | fields


EXAMPLE_1 = "[123m] [345m] 678p 56s WW +7s"


def test_on_a_discard_the_discarder_pays_eight_and_the_fan_the_others_eight() -> None:
    players = {"E": {"total": 0}, "S": {"total": 0}, "W": {"total": 0}, "N": EXAMPLE_1}
    result = settle_table(table(winner="N", discarder="E", players=players))
    assert result.net == {"E": -16, "S": -8, "W": -8, "N": 32}
    assert result.next_dealer == "S"


def test_self_drawn_each_pays_eight_and_the_total_flowers_included() -> None:
    hand = "1112345678999p f1 f2 +9p self"  # worked example 3, 107, and 2 flowers
    players = {"E": {"total": 0}, "S": hand, "W": {"total": 0}, "N": {"total": 0}}
    result = settle_table(table(winner="S", players=players))
    assert result.net == {"E": -117, "S": 351, "W": -117, "N": -117}


def test_a_win_under_eight_fan_cannot_be_settled() -> None:
    hand = "[345m] [456p] 12s 567s SS f1 f2 f3 f4 f5 f6 f7 f8 +3s"
    players = {"E": {"total": 0}, "S": {"total": 0}, "W": {"total": 0}, "N": hand}
    with pytest.raises(HandError, match="起和番不足"):
        settle_table(table(winner="N", discarder="E", players=players))


def test_false_win_ten_to_each_and_another_may_still_win() -> None:
    players = {"E": {"total": 0}, "S": {"total": 0}, "W": {"total": 0}, "N": EXAMPLE_1}
    events = [{"type": "false-win", "seat": "W"}]
    result = settle_table(table(winner="N", discarder="E", players=players, events=events))
    assert result.net == {"E": -6, "S": 2, "W": -38, "N": 42}
    alone = settle_table(table(events=events))
    assert alone.net == {"E": 10, "S": 10, "W": -30, "N": 10} and alone.next_dealer == "S"


def test_discarder_must_match_the_line() -> None:
    players = {"E": {"total": 0}, "S": {"total": 0}, "W": {"total": 0}, "N": EXAMPLE_1}
    with pytest.raises(HandError, match="discarder"):
        settle_table(table(winner="N", players=players))
    players["N"] = EXAMPLE_1 + " self"
    with pytest.raises(HandError, match="discarder"):
        settle_table(table(winner="N", discarder="E", players=players))


def test_liable_is_refused_and_round_must_agree() -> None:
    players = {"E": {"total": 0}, "S": {"total": 0}, "W": {"total": 0}, "N": EXAMPLE_1 + " round:S"}
    with pytest.raises(HandError):
        settle_table(table(winner="N", discarder="E", players=players, events=[{"type": "liable", "seat": "E"}]))
    with pytest.raises(HandError, match="round"):
        settle_table(table(winner="N", discarder="E", players=players, round="W"))
    assert settle_table(table(winner="N", discarder="E", players=players, round="S")).net["N"] == 32


def test_drawn_deal_pays_nothing_and_passes_the_deal() -> None:
    result = settle_table(table())
    assert result.payments == [] and result.next_dealer == "S"


# -- waits ---------------------------------------------------------------------------------------


def test_waits_score_each_wait_and_leave_out_a_kind_held_four_times() -> None:
    found = {
        w.tile: (w.discard.total if w.discard else None, w.discard.legal if w.discard else None)
        for w in waits("234567m 23456p 55s seat:W", rules="mcr").waits
    }
    assert found == {"1p": (6, False), "4p": (8, True), "7p": (9, True)}
    dead = {w.tile for w in waits("[333m] [456p] [789s] 1113m", rules="mcr").waits}
    assert dead == {"2m"}


# -- a ledger ------------------------------------------------------------------------------------


def test_a_ledger_passes_the_deal_every_time_and_moves_the_prevalent_wind_every_four(tmp_path: Path) -> None:
    from taihu.store import LedgerStore

    drawn = table()
    players = ["甲", "乙", "丙", "丁"]
    with LedgerStore(tmp_path / "ledger.db") as store:
        ledger = store.create("match", "mcr", players)
        dealt = [store.add(ledger, drawn) for _ in range(17)]
    assert [deal.table["round"] for deal in dealt] == list("EEEESSSSWWWWNNNNE")
    assert [deal.dealer for deal in dealt[:5]] == ["甲", "乙", "丙", "丁", "甲"]


# deals of a match in seats as they stand: a draw, or a win by one seat on another's discard (EXAMPLE_1)
DRAW = table()
NORTH_ON_EAST = table(
    winner="N", discarder="E", players={"E": {"total": 0}, "S": {"total": 0}, "W": {"total": 0}, "N": EXAMPLE_1}
)
MATCH = [NORTH_ON_EAST, DRAW, NORTH_ON_EAST, NORTH_ON_EAST, DRAW, NORTH_ON_EAST]


@pytest.mark.parametrize(
    ("played", "undone", "round_next", "dealer_next"),
    [
        (4, 1, "E", "丁"),  # the 4th deal undone: it is played again in the East round, 丁 dealing
        (5, 1, "S", "甲"),  # the 5th, the South round's first: South again, 甲 dealing
        (5, 2, "E", "丁"),  # the 5th and the 4th: back in the East round
        (6, 2, "S", "甲"),
    ],
)
def test_an_undo_keeps_the_prevalent_wind_rotation_and_the_standings(
    tmp_path: Path, played: int, undone: int, round_next: str, dealer_next: str
) -> None:
    """The prevalent wind moves every four deals: a deal undone and played again gets the round and dealer it had,
    and the standings after it are those of the same deals added with no undo."""
    from taihu.store import LedgerStore

    players = ["甲", "乙", "丙", "丁"]
    with LedgerStore(tmp_path / "ledger.db") as store:
        ledger = store.create("undone", "mcr", players)
        first = [store.add(ledger, deal) for deal in MATCH[:played]]
        for _ in range(undone):
            store.undo(ledger)
        again = store.add(ledger, MATCH[played - undone])
        after_undo = store.standing(ledger)
        straight = store.create("straight", "mcr", players)
        for deal in MATCH[: played - undone + 1]:
            store.add(straight, deal)
        expected = store.standing(straight)
    assert (again.table["round"], again.dealer) == (round_next, dealer_next)
    redone = first[played - undone]
    assert (again.number, again.table["round"], again.dealer) == (redone.number, redone.table["round"], redone.dealer)
    assert after_undo.totals == expected.totals
    assert after_undo.next_dealer == expected.next_dealer
    assert after_undo.deal_count == played - undone + 1
    assert any(after_undo.totals.values())  # the wins counted: the standings compared are not all zero
