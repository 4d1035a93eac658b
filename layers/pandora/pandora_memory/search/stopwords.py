"""Words too common to tell memories apart, and the Korean particles stripped from word ends."""


def _words(text: str) -> list[str]:
    return text.split()


ENGLISH_STOP_WORDS = frozenset(
    _words(
        """
        a about above after again against all also am an and any are aren as at be because been before
        being below between both but by can cannot could couldn did didn do does doesn doing don down
        during each else ever few for from further had hadn has hasn have haven having he her here hers
        herself him himself his how i if in into is isn it its itself just let ll me might more most much
        must mustn my myself no nor not now of off on once only or other ought our ours ourselves out over
        own re same shall shan she should shouldn so some such than that the their theirs them themselves
        then there these they this those through to too under until up upon us ve very was wasn we were
        weren what when where which while who whom whose why will with won would wouldn you your yours
        yourself yourselves s t d m o y
        anything something thing things tell told say said know remember recall please thanks ok okay
        yeah yes hey hi got get gets getting
        """
    )
)

# Longest first, so that 에서는 is stripped before 는.
KOREAN_PARTICLES = tuple(
    sorted(
        _words(
            """
            은 는 이 가 을 를 의 에 와 과 도 로 만 랑 께 에서 에게 한테 으로 까지 부터 처럼
            보다 이랑 하고 에는 에서는 에게는 으로는 이라는 라는 이라고 라고 이란 란 이나
            나 이야 야 이지 이고 이며 와는 과는 도록 께서
            """
        ),
        key=len,
        reverse=True,
    )
)

KOREAN_STOP_WORDS = frozenset(
    _words(
        """
        그 이 저 것 수 등 및 또 또는 그리고 그래서 하지만 그런데 뭐 뭐야 뭔가 뭐였지
        뭐였더라 무엇 무엇인가요 무슨 어떻게 어떤 언제 어디 어디서 누구 누가 왜 있어
        있나 있나요 있었지 했지 했어 했나 해줘 알려줘 말해줘 기억나 기억해 대해 대해서 관련
        """
    )
)
