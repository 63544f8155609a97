"""A member's bookkeeping of the mail of new messages (when the last message a mail told him of
was written, and when it was sent) is the notifications' now (`notify.ConversationMail`); notify's
migration 0006 copies it there before this one removes it (its `run_before`)."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('talk', '0002_rerender_text_in_angle_brackets'),
    ]

    operations = [
        migrations.RemoveField(
            model_name='member',
            name='mailed_at',
        ),
        migrations.RemoveField(
            model_name='member',
            name='mailed_until',
        ),
    ]
